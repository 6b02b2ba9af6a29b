"""The capacity run's chart (docs/images/capacity.svg): latency against the offered load, as SVG written by hand."""

from __future__ import annotations

import math

from .capacity_page import LATENCY_TARGET_MS, CapacityResult
from .common import cores

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 64, 150, 36, 56
SERIES = (("command p50", "cmd_p50_ms", "#4c78a8", ""), ("command p99", "cmd_p99_ms", "#1f3b73", ""),
          ("push delay p99", "push_p99_ms", "#e45756", "6 4"))


def chart(result: CapacityResult) -> str:
    """Latency (ms, logarithmic) against the offered load (arrivals/s, logarithmic: each step offers a fraction
    more)."""
    steps = [s for s in result.steps if s.arrivals_s > 0]
    xs = [s.arrivals_s for s in steps] or [1.0]
    x0, x1 = math.log2(min(xs)), math.log2(max(xs))
    if x1 - x0 < 1:
        x1 = x0 + 1
    values = [max(getattr(s, attr), 1.0) for s in steps for _, attr, _, _ in SERIES] + [LATENCY_TARGET_MS]
    y1 = 10 ** math.ceil(math.log10(max(values) * 1.2))
    y0 = 1.0
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (math.log2(x) - x0) / (x1 - x0) * plot_w

    def py(ms: float) -> float:
        return TOP + plot_h - (math.log10(max(ms, y0)) - math.log10(y0)) / (math.log10(y1) - math.log10(y0)) * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           "<title>Latency against offered load (bench/capacity.py)</title>",
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{LEFT}" y="20" font-size="14">Latency against offered load, one {cores()}-core box</text>']
    decade = 1.0
    while decade <= y1:
        y = py(decade)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{decade:g}</text>')
        decade *= 10
    for s in steps:
        x = px(s.arrivals_s)
        out.append(f'<line x1="{x:.1f}" y1="{TOP + plot_h}" x2="{x:.1f}" y2="{TOP + plot_h + 4}" stroke="#333"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 17}" text-anchor="middle">{s.arrivals_s:g}</text>')
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 30}" text-anchor="middle" fill="#666">'
                   f'{s.commands_s:.0f}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle">arrivals/s (grey: moves/s '
               "answered)</text>")
    out.append(f'<text transform="translate(16 {TOP + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle">ms '
               "(log scale)</text>")
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333"/>')
    target = py(LATENCY_TARGET_MS)
    out.append(f'<line x1="{LEFT}" y1="{target:.1f}" x2="{LEFT + plot_w}" y2="{target:.1f}" stroke="#999" '
               'stroke-dasharray="2 3"/>')
    out.append(f'<text x="{LEFT + plot_w + 6}" y="{target + 4:.1f}" fill="#666">{LATENCY_TARGET_MS:g} ms target'
               "</text>")
    for i, (name, attr, colour, dash) in enumerate(SERIES):
        points = " ".join(f"{px(s.arrivals_s):.1f},{py(getattr(s, attr)):.1f}" for s in steps)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{dashed}/>')
        out.extend(f'<circle cx="{px(s.arrivals_s):.1f}" cy="{py(getattr(s, attr)):.1f}" r="3" fill="{colour}"/>'
                   for s in steps)
        ly = TOP + plot_h - 74 + 18 * i  # low on the right: the target line's label is higher up
        out.append(f'<line x1="{LEFT + plot_w + 8}" y1="{ly + 20}" x2="{LEFT + plot_w + 30}" y2="{ly + 20}" '
                   f'stroke="{colour}" stroke-width="2"{dashed}/>')
        out.append(f'<text x="{LEFT + plot_w + 34}" y="{ly + 24}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
