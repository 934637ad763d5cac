"""Greek and Cyrillic letters in Latin ones, for identifiers made from names (tournament ids).

Greek follows ELOT 743 / ISO 843 (type 2, transcription) in its simple letter-by-letter
form; Cyrillic the Russian passport scheme (ICAO 9303), with the letters of Ukrainian,
Belarusian, Serbian, Macedonian and Bulgarian added. The result only needs to be readable
and stable, not reversible.

>>> to_latin("Διασυλλογικό Κύπελλο Κρητικής Φιλίας 2024")
'Diasyllogiko Kypello Kritikis Filias 2024'
>>> to_latin("Чемпионат Москвы по шахматам")
'Chempionat Moskvy po shakhmatam'
>>> to_latin("Відкритий чемпіонат Києва")
'Vidkrytyi chempionat Kyieva'
>>> to_latin("Šahovski turnir")  # other scripts are left as they are
'Šahovski turnir'
"""

from __future__ import annotations

import unicodedata

_GREEK = {
    "α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th",
    "ι": "i", "κ": "k", "λ": "l", "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p",
    "ρ": "r", "σ": "s", "ς": "s", "τ": "t", "υ": "y", "φ": "f", "χ": "ch", "ψ": "ps",
    "ω": "o",
}  # fmt: skip
_GREEK_PAIRS = {"ου": "ou", "αυ": "av", "ευ": "ev", "μπ": "b", "ντ": "nt", "γκ": "gk"}

_CYRILLIC = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
    "з": "z", "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts",
    "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "ie", "ы": "y", "ь": "", "э": "e", "ю": "iu",
    "я": "ia",
    # Ukrainian, Belarusian
    "є": "ie", "і": "i", "ї": "i", "ґ": "g", "ў": "u",
    # Serbian, Macedonian
    "ђ": "dj", "ј": "j", "љ": "lj", "њ": "nj", "ћ": "c", "џ": "dz", "ѓ": "gj", "ќ": "kj",
    "ѕ": "dz",
}  # fmt: skip
_UKRAINIAN_OVERRIDES = {"и": "y", "г": "h", "ї": "i"}


def to_latin(text: str) -> str:
    """``text`` with Greek and Cyrillic letters written in Latin ones (capitals kept);
    every other character is left as it is."""
    # Greek accents (tonos, dialytika) go; other letters keep theirs (й, ё, š)
    base = "".join(_plain_greek(c) for c in text)
    ukrainian = any(c in "єіїґЄІЇҐ" for c in base)
    out: list[str] = []
    i = 0
    while i < len(base):
        c = base[i]
        lower = c.lower()
        pair = base[i : i + 2].lower()
        if pair in _GREEK_PAIRS and _script(c) == "greek":
            latin = _GREEK_PAIRS[pair]
            i += 2
        elif lower in _GREEK:
            latin = _GREEK[lower]
            i += 1
        elif lower in _CYRILLIC:
            latin = (_UKRAINIAN_OVERRIDES if ukrainian else {}).get(lower, _CYRILLIC[lower])
            i += 1
        else:
            out.append(c)
            i += 1
            continue
        out.append(latin.capitalize() if c != lower and latin else latin)
    return "".join(out)


def _plain_greek(c: str) -> str:
    if c.isascii() or "GREEK" not in unicodedata.name(c, ""):
        return c
    return "".join(d for d in unicodedata.normalize("NFD", c) if not unicodedata.combining(d))


def _script(c: str) -> str:
    lower = c.lower()
    if lower in _GREEK:
        return "greek"
    if lower in _CYRILLIC:
        return "cyrillic"
    return "other"
