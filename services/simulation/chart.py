"""The summary as one SVG image (no plotting library): a row per arm with three panels — win rate per seat
(95% interval whiskers), final score distribution per seat, and games per number of rounds played."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from .summary import ArmSummary, scores_of

WIDTH = 1200
ROW = 270
TOP = 56
PANEL_W = 360
PANEL_H = 190
GAP = 40
LEFT = 50
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")


def _text(x: float, y: float, content: str, size: int = 12, anchor: str = "start", weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}">'
            f"{escape(content)}</text>")


def _axes(x: float, y: float, title: str) -> list[str]:
    return [
        _text(x, y - 8, title, 13, weight="bold"),
        f'<line x1="{x}" y1="{y + PANEL_H}" x2="{x + PANEL_W}" y2="{y + PANEL_H}" stroke="#333"/>',
        f'<line x1="{x}" y1="{y}" x2="{x}" y2="{y + PANEL_H}" stroke="#333"/>',
    ]


def _win_rates(arm: ArmSummary, x: float, y: float) -> list[str]:
    out = _axes(x, y, "Win rate (95% CI)")
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        ty = y + PANEL_H * (1 - tick)
        out.append(f'<line x1="{x - 4}" y1="{ty:.1f}" x2="{x + PANEL_W}" y2="{ty:.1f}" stroke="#ddd"/>')
        out.append(_text(x - 6, ty + 4, f"{tick:.0%}", 10, "end"))
    slot = PANEL_W / max(1, len(arm.seats))
    for i, seat in enumerate(arm.seats):
        bx = x + i * slot + slot * 0.2
        bw = slot * 0.6
        top = y + PANEL_H * (1 - seat.win_rate)
        colour = COLOURS[i % len(COLOURS)]
        out.append(f'<rect x="{bx:.1f}" y="{top:.1f}" width="{bw:.1f}" height="{y + PANEL_H - top:.1f}" '
                   f'fill="{colour}" fill-opacity="0.8"/>')
        cx = bx + bw / 2
        lo, hi = y + PANEL_H * (1 - seat.win_rate_low), y + PANEL_H * (1 - seat.win_rate_high)
        out.append(f'<line x1="{cx:.1f}" y1="{lo:.1f}" x2="{cx:.1f}" y2="{hi:.1f}" stroke="#000"/>')
        out.append(_text(cx, top - 4, f"{seat.win_rate:.1%}", 11, "middle"))
        out.append(_text(cx, y + PANEL_H + 14, seat.label, 10, "middle"))
    return out


def _scores(arm: ArmSummary, x: float, y: float) -> list[str]:
    out = _axes(x, y, "Final score (games per bin)")
    score = scores_of(arm)
    peak = max((c for s in arm.seats for _, c in s.score_histogram), default=1) or 1
    bins = len(arm.seats[0].score_histogram) if arm.seats else 0
    if bins == 0:
        return out
    width = PANEL_W / bins
    for i, seat in enumerate(arm.seats):
        colour = COLOURS[i % len(COLOURS)]
        points = []
        for b, (_, count) in enumerate(seat.score_histogram):
            h = y + PANEL_H * (1 - count / peak)
            points += [f"{x + b * width:.1f},{h:.1f}", f"{x + (b + 1) * width:.1f},{h:.1f}"]
        out.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{colour}" stroke-width="2"/>')
        median_x = x + PANEL_W * _fraction(seat.score.median, arm.seats[0].score_histogram)
        out.append(f'<line x1="{median_x:.1f}" y1="{y}" x2="{median_x:.1f}" y2="{y + PANEL_H}" stroke="{colour}" '
                   'stroke-dasharray="4 3"/>')
        out.append(_text(x + PANEL_W - 4, y + 14 + 14 * i, f"{seat.label}: median {score(seat.score.median)}", 10,
                         "end"))
    first, last = arm.seats[0].score_histogram[0][0], arm.seats[0].score_histogram[-1][0]
    step = arm.seats[0].score_histogram[1][0] - first if bins > 1 else 1
    out.append(_text(x, y + PANEL_H + 14, score(first), 10))
    out.append(_text(x + PANEL_W, y + PANEL_H + 14, score(last + step), 10, "end"))
    out.append(_text(x - 6, y + 4, str(peak), 10, "end"))
    return out


def _fraction(value: float, histogram: Sequence[tuple[int, int]]) -> float:
    first = histogram[0][0]
    step = histogram[1][0] - first if len(histogram) > 1 else 1
    span = step * len(histogram)
    return min(1.0, max(0.0, (value - first) / span))


def _rounds(arm: ArmSummary, x: float, y: float) -> list[str]:
    out = _axes(x, y, "Rounds played (games)")
    if not arm.rounds_histogram:
        return out
    rounds = range(arm.rounds_histogram[0][0], arm.rounds_histogram[-1][0] + 1)
    counts = dict(arm.rounds_histogram)
    peak = max(counts.values())
    slot = PANEL_W / len(rounds)
    for i, r in enumerate(rounds):
        count = counts.get(r, 0)
        top = y + PANEL_H * (1 - count / peak)
        out.append(f'<rect x="{x + i * slot + slot * 0.1:.1f}" y="{top:.1f}" width="{slot * 0.8:.1f}" '
                   f'height="{y + PANEL_H - top:.1f}" fill="#7f7f7f"/>')
        out.append(_text(x + i * slot + slot / 2, y + PANEL_H + 14, str(r), 10, "middle"))
        if count:
            out.append(_text(x + i * slot + slot / 2, top - 4, str(count), 10, "middle"))
    return out


def svg(title: str, arms: Sequence[ArmSummary]) -> str:
    height = TOP + ROW * max(1, len(arms))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">',
        f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>',
        _text(WIDTH / 2, 24, title, 16, "middle", "bold"),
    ]
    for row, arm in enumerate(arms):
        y = TOP + row * ROW + 30
        parts.append(_text(10, y - 24, f"{arm.name} — {arm.games} games", 13, weight="bold"))
        parts += _win_rates(arm, LEFT, y)
        parts += _scores(arm, LEFT + PANEL_W + GAP, y)
        parts += _rounds(arm, LEFT + 2 * (PANEL_W + GAP), y)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
