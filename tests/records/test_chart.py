"""The rating chart's data: nothing before two values, the line inside the viewBox, the
best value highest (the page test checks the rendered numbers are plain SVG decimals)."""

from records.chart import rating_chart


def test_nothing_to_draw_before_two_values():
    assert rating_chart([]) is None
    assert rating_chart([1000]) is None


def test_the_line_rises_with_the_rating_and_stays_in_the_box():
    chart = rating_chart([1000, 1097, 1050, 940])
    points = [tuple(map(float, p.split(","))) for p in chart["points"].split()]
    assert len(points) == 4
    assert all(0 <= x <= chart["width"] and 0 <= y <= chart["height"] for x, y in points)
    ys = [y for _x, y in points]
    assert ys[1] == min(ys) and ys[3] == max(ys)  # SVG's y grows downwards
