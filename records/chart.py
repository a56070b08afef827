"""The rating history as an SVG line drawn by the server (no script): coordinates in a fixed
viewBox that scales to the page's width, with large enough labels for a 360 px phone. Every
coordinate is a string already: the template would write a float the French way (« 45,2 »),
which SVG does not read."""

WIDTH, HEIGHT = 320, 160
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 12, 24


def rating_chart(history: list[int]) -> dict | None:
    """{"width", "height", "points" (the polyline), "dots", "y_labels", "x_labels", "last"} for
    the template, or None with fewer than two values (nothing to draw)."""
    if len(history) < 2:
        return None
    low, high = min(history), max(history)
    if high - low < 20:  # a flat line still gets a readable scale
        middle = (high + low) / 2
        low, high = middle - 10, middle + 10
    span_x = WIDTH - LEFT - RIGHT
    span_y = HEIGHT - TOP - BOTTOM
    steps = len(history) - 1

    def x(index: int) -> str:
        return f"{LEFT + span_x * index / steps:.1f}"

    def y(value: float) -> str:
        return f"{TOP + span_y * (high - value) / (high - low):.1f}"

    coords = [(x(i), y(v)) for i, v in enumerate(history)]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "label_x": LEFT - 4,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "points": " ".join(f"{px},{py}" for px, py in coords),
        "last": {"x": coords[-1][0], "y": coords[-1][1], "value": history[-1]},
        "y_labels": [
            {"y": f"{float(y(value)) + 4:.1f}", "text": str(round(value))}
            for value in (high, (high + low) / 2, low)
        ],
        "x_labels": [
            {"x": x(0), "text": "0"},
            {"x": x(steps), "text": str(steps)},
        ],
        "label_y": HEIGHT - 6,
    }
