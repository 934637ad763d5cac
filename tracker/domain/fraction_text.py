"""A fraction as the texts of alerts and reasons write it: a whole number without decimals,
else its shortest decimal (minutes for 60 moves, the weights of a title mix).

>>> fraction_text(Fraction(25)), fraction_text(Fraction(3, 2)), fraction_text(Fraction(1, 3))
('25', '1.5', '0.333333')
"""

from __future__ import annotations

from fractions import Fraction


def fraction_text(value: Fraction) -> str:
    """``value`` as an integer when it is one, else as a decimal (``:g``, six digits)."""
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"


__all__ = ["fraction_text"]
