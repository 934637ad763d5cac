"""The text of a tournament file from its bytes: UTF-8 (with or without a byte-order mark),
UTF-16 with a byte-order mark, Windows-1250 (Central European), Windows-1252 (Western) or
Latin-1, detected rather than guessed.

Arbiters' programs write TRF files in the code page of the computer they run on, and the
files say nothing about it. UTF-8 is recognised by being valid UTF-8 (text in a single-byte
code page almost never is). Otherwise each candidate code page decodes the bytes and the
words that contain letters outside ASCII are scored: a word is plausible when its accented
letters all belong to the alphabet of one language written in that code page (``Dvořák``:
Czech; ``Núñez``: Spanish), implausible when they mix alphabets (``Dvoøák``) and bad when a
symbol or control character sits among its letters (``£ukasz``, ``Œwi¹tek``). The code page
with the best score wins; on a tie Windows-1252 is chosen (the common case, and the words
read the same in both). Windows-1252 and Latin-1 differ only in bytes 0x80–0x9F, which are
control characters in Latin-1: a file without them decodes the same in both and is reported
as Latin-1, a file with them as Windows-1252.

>>> decode("Dvořák, Tomáš".encode("cp1250")).encoding
'cp1250'
>>> decode("Núñez, José".encode("cp1252")).encoding
'latin-1'
>>> decode("Kowalski, Łukasz; Świątek, Iga".encode("cp1250")).text
'Kowalski, Łukasz; Świątek, Iga'
>>> decode("Παπαδόπουλος".encode("utf-8")).encoding
'utf-8'
>>> decode(b"\\xef\\xbb\\xbf012 Open").text
'012 Open'
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata

_WORD = re.compile(r"[^\s,;:()/\"'\[\]{}<>|=+*0-9]+")

_ALPHABETS: dict[str, tuple[str, ...]] = {
    # accented letters of languages written in Windows-1250 (lower case)
    "cp1250": (
        "áčďéěíňóřšťúůýž",  # Czech
        "áäčďéíĺľňóôŕšťúýž",  # Slovak
        "ąćęłńóśźż",  # Polish
        "áéíóöőúüű",  # Hungarian
        "čćđšž",  # Croatian, Bosnian, Serbian (Latin), Slovene
        "ăâîşţșț",  # Romanian
        "çë",  # Albanian
        "äöüß",  # German (written in 1250 too)
    ),
    # accented letters of languages written in Windows-1252 / Latin-1 (lower case)
    "cp1252": (
        "äöüß",  # German
        "àâæçéèêëîïôœùûüÿ",  # French
        "áéíñóúü",  # Spanish
        "àáâãçéêíóôõú",  # Portuguese
        "àèéìíòóù",  # Italian
        "àçèéíïòóúü",  # Catalan
        "åäöæø",  # Scandinavian
        "áðéíóúýþæö",  # Icelandic
        "éëïóöü",  # Dutch
        "šž",  # loanwords and Baltic/Slavic names in Western files
        "äöüšž",  # Finnish
    ),
}


@dataclasses.dataclass(frozen=True, slots=True)
class Decoded:
    """Text and the name of the encoding it was read with."""

    text: str
    encoding: str


def decode(data: bytes) -> Decoded:
    """The text of ``data`` and the encoding it was found to be in (see the module's
    docstring). Never fails: Latin-1 decodes any byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        return Decoded(data[3:].decode("utf-8", errors="replace"), "utf-8-sig")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return Decoded(data.decode("utf-16", errors="replace"), "utf-16")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return Decoded(text, "utf-8" if not data.isascii() else "ascii")
    scores = {name: _score(_decode_or_none(data, name)) for name in ("cp1252", "cp1250")}
    if scores["cp1250"] > scores["cp1252"]:
        return Decoded(data.decode("cp1250"), "cp1250")
    if any(0x80 <= b <= 0x9F for b in data):
        western = _decode_or_none(data, "cp1252")
        if western is not None:
            return Decoded(western, "cp1252")
    return Decoded(data.decode("latin-1"), "latin-1")


def _decode_or_none(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:  # bytes the code page leaves undefined (0x81, 0x8D, …)
        return None


def _score(text: str | None) -> int:
    """Plausible words minus implausible ones, bad ones counted thrice (see the module's
    docstring); ``None`` (undecodable) scores lowest."""
    if text is None:
        return -(10**9)
    total = 0
    for word in _WORD.findall(text):
        if word.isascii():
            continue
        total += _word_score(word)
    return total


def _word_score(word: str) -> int:
    special = {c for c in word.lower() if not c.isascii()}
    if any(not c.isalpha() or unicodedata.category(c).startswith("C") for c in special):
        return -3
    return 1 if _fits_a_language(special) else -1


def _fits_a_language(letters: set[str]) -> bool:
    return any(
        letters <= set(alphabet) for alphabets in _ALPHABETS.values() for alphabet in alphabets
    )
