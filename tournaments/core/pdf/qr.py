"""QR codes on paper, drawn as vectors so they stay sharp at any printer resolution.

The code itself comes from ``tournaments.common.hall.qr_code``, the one maker of QR codes, so what a
sheet encodes is what the projector and the console encode.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from tournaments.common.hall import qr_code


def draw_qr(c: Canvas, url: str, x: float, y: float, size: float) -> None:
    """The QR code with its lower left corner at (x, y), quiet zone included."""
    rows = list(qr_code(url).matrix_iter(scale=1, border=4))
    module = size / len(rows)
    path = c.beginPath()
    for r, row in enumerate(rows):
        top = y + size - (r + 1) * module
        run_start: int | None = None
        # One rectangle per run of dark modules keeps the page small and fast to draw.
        for col, dark in enumerate([*row, False]):
            if dark and run_start is None:
                run_start = col
            elif not dark and run_start is not None:
                path.rect(x + run_start * module, top, (col - run_start) * module, module)
                run_start = None
    c.setFillColorRGB(0, 0, 0)
    c.drawPath(path, stroke=0, fill=1)


class QrFlowable(Flowable):
    """``draw_qr`` as a square in a flowing document (the seating sheet)."""

    def __init__(self, url: str, size: float) -> None:
        super().__init__()
        self.url = url
        self.size = size

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.size, self.size

    def draw(self) -> None:
        draw_qr(self.canv, self.url, 0, 0, self.size)
