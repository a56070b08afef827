"""axe-core in the browser (bundled by axe-playwright-python, nothing fetched at run time): the
serious and critical violations of a page at phone and desktop width, for any browser test."""

from collections import Counter

from axe_playwright_python.sync_playwright import Axe

WIDTHS = {360: 740, 1280: 800}
BLOCKING = ("serious", "critical")
AXE = Axe()
#: counts by impact of every page checked, printed at the end of each test (the closing note)
REPORT: dict[str, Counter] = {}


#: axe cannot measure contrast over a gradient (the felt) and leaves it "to review": paint each
#: gradient with its first stop (the felt's lighter centre, the worst case for white and yellow
#: words) so the words on it are measured too.
FLATTEN_GRADIENTS = """() => {
  for (const element of document.querySelectorAll("body *")) {
    const image = getComputedStyle(element).backgroundImage;
    const first = image.includes("gradient") && image.match(/rgba?\\([^)]*\\)/);
    if (first) {
      element.style.backgroundImage = "none";
      element.style.backgroundColor = first[0];
    }
  }
}"""


def run_axe(page) -> list[dict]:
    """axe's violations on the page as it is, its gradients flattened in the same script (a push
    arriving in between would bring the felt back)."""
    page.evaluate(AXE.axe_script)
    return page.evaluate(
        f"async () => {{ ({FLATTEN_GRADIENTS})();"
        " return (await axe.run({resultTypes: ['violations']})).violations; }"
    )


def axe_problems(page, name: str) -> list[str]:
    """Run axe on `page` at each width; the serious and critical violations, one line each."""
    problems = []
    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        violations = run_axe(page)
        REPORT[f"{name} @{width}"] = Counter(
            {(v["impact"], v["id"]): len(v["nodes"]) for v in violations}
        )
        for v in violations:
            if v["impact"] in BLOCKING:
                targets = ", ".join(str(n["target"]) for n in v["nodes"][:4])
                problems.append(
                    f"{name} @{width}px: {v['id']} ({v['impact']}) × {len(v['nodes'])} — {targets}"
                )
    return problems


def print_report():
    for name, counts in REPORT.items():
        by_impact = Counter()
        for (impact, _rule), nodes in counts.items():
            by_impact[impact] += nodes
        summary = ", ".join(
            f"{k} {by_impact[k]}" for k in ("critical", "serious", "moderate", "minor")
        )
        rules = " ".join(f"{rule}({impact[0]}{nodes})" for (impact, rule), nodes in counts.items())
        print(f"axe {name}: {summary}  {rules}")
    REPORT.clear()


def assert_clean(problems: list[str]):
    print_report()
    assert not problems, "\n".join(problems)
