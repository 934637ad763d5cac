"""FIDE over-the-board titles (B.01 0.31) and the rating level tied to each.

>>> Title.parse("GM")
<Title.GM: 'GM'>
>>> Title.parse("  m")   # the rating-list letter used by old TRF files
<Title.IM: 'IM'>
>>> Title.parse("wg").value
'WGM'
>>> Title.WGM.for_women_only, Title.IM.for_women_only
(True, False)
"""

from __future__ import annotations

import enum


class Title(enum.Enum):
    """A title of B.01 0.31. The value is the abbreviation used in TRF files and on the list."""

    # members are singletons compared by identity: hash them so too (Enum's default hashes
    # the name in Python code, a measurable cost in the norm search's counters and sets)
    __hash__ = object.__hash__

    GM = "GM"
    IM = "IM"
    WGM = "WGM"
    FM = "FM"
    WIM = "WIM"
    CM = "CM"
    WFM = "WFM"
    WCM = "WCM"

    @classmethod
    def parse(cls, text: str | None) -> Title | None:
        """Read a title from a TRF cell or an event field; blank means untitled.

        Accepts the abbreviations of TRF16 (``GM``, ``WIM``, …) and the rating-list
        letters that older files use (``g``, ``m``, ``f``, ``c``, ``wg``, ``wm``, ``wf``,
        ``wc``). Raises :exc:`ValueError` for anything else.
        """
        if text is None:
            return None
        key = text.strip().upper()
        if not key:
            return None
        if key in cls.__members__:
            return cls[key]
        if key in _LETTERS:
            return _LETTERS[key]
        raise ValueError(f"unknown title {text.strip()!r}; expected one of {', '.join(_NAMES)}")

    level: int
    """The rating that goes with the title: 1.52 (GM 2500, IM 2400, WGM 2300, WIM 2200) for
    the norm titles and 1.3 (FM 2300, CM 2200, WFM 2100, WCM 2000) for the others. Set on
    each member below as a plain attribute, like :attr:`for_women_only`."""
    for_women_only: bool
    """The title's category: the women's titles (WGM, WIM, WFM, WCM), which only women can
    gain, or the open ones (GM, IM, FM, CM). Which titles a player can gain is a rule of the
    edition (:meth:`tracker.rules.TitleRules.why_not_eligible`)."""

    @property
    def is_norm_title(self) -> bool:
        """GM, IM, WGM and WIM are gained by norms (1.4)."""
        return self in NORM_TITLES


NORM_TITLES: tuple[Title, ...] = (Title.GM, Title.IM, Title.WGM, Title.WIM)
"""The titles a norm can be achieved for, strongest first."""

RATING_TITLES: tuple[Title, ...] = (Title.FM, Title.CM, Title.WFM, Title.WCM)
"""The titles awarded on rating alone (1.3)."""

_LEVELS = {
    Title.GM: 2500,
    Title.IM: 2400,
    Title.WGM: 2300,
    Title.FM: 2300,
    Title.WIM: 2200,
    Title.CM: 2200,
    Title.WFM: 2100,
    Title.WCM: 2000,
}
for _title in Title:
    _title.__dict__["level"] = _LEVELS[_title]
    _title.__dict__["for_women_only"] = _title.value.startswith("W")

_LETTERS = {
    "G": Title.GM,
    "M": Title.IM,
    "F": Title.FM,
    "C": Title.CM,
    "WG": Title.WGM,
    "WM": Title.WIM,
    "WF": Title.WFM,
    "WC": Title.WCM,
}
_NAMES = [t.value for t in Title]
