"""The seed the web tests serve, and its tournament id."""

from __future__ import annotations

from tests.support.paths import ROOT

SEED = ROOT / "seeds" / "swiss-11r-secured-2013.trf"


TID = "swiss-11r-secured-2013"
