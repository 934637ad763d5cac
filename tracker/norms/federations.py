"""The federation rules of the opponent mix (1.43, 1.44a of 2009; 1.4.3, 1.4.4 of 2024) over the
kept games, with players of unknown federation counted both ways: each rule is met surely,
failed surely, or depends on them, and says which.

Reading [files 10] A blank federation is an unknown federation: (``player_registered.federation:
null``, ``Player.federation`` ``None``). Standings and live ratings do not read federations and
are unchanged. The federation rules of a norm (1.43/1.44a of 2009, 1.4.3/1.4.4 of 2024, 2.2
before 2009) are never guessed: each is counted over every federation the players of unknown
federation could have (the player's own included, when that is the unknown one) — at worst all
from the player's federation, or for the cap on one federation all from the largest group; at
best each from a federation of their own. A requirement that holds either way is met; one that
fails either way fails; one that depends is not met and its evidence says on whom it depends. A
norm is announced only when it holds whatever those federations are; ``tracker check`` and the
player card then show the attempt that would give it, with the requirements that depend. The
Swiss exemption (1.43e / 1.4.3d) counts them the same way (not foreign at worst); an exemption
that holds only if they are foreign makes every federation rule depend on it, and so does 1.4.3b
for a player of unknown federation when the host is known. The flags' ``swiss_exemption`` counts
them as compatriots of the host. An unknown federation is not taken for a non-member (1.42a
applies to the code ``NON``). Before 2009, a player of unknown federation is held to the guest's
shares of 2.2 when the host is known, to the host's when it is not (a known limit: the other
share is not also checked). Prospects ("is the norm still possible?") count them at their most
favourable."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from tracker.domain.players import Player
from tracker.norms.requirements import Requirements
from tracker.norms.values import Check, NormGame
from tracker.rules import TitleRules
from tracker.rules.mix import MixRule


@dataclasses.dataclass(frozen=True, slots=True)
class Federations:
    """The federations of the kept games' opponents, for 1.43/1.44a (1.4.3/1.4.4, 2.2), with
    players of unknown federation counted both ways. Each count is a range ``(low, high)``
    over every federation those players (and the player, when theirs is unknown) could
    have: an at-least rule is surely met at ``low`` and possibly met at ``high``, an at-most
    rule the other way round. One assignment gives every best value at once (each unknown
    from a federation of their own), so "possible" for each rule is possible for all."""

    known: Counter[str]
    own: str | None
    unknown: tuple[Player, ...]
    """Opponents of unknown federation, each once."""
    unknown_games: int
    most_against_one_unknown: int

    @classmethod
    def of(cls, kept: Sequence[NormGame], player: Player) -> Federations:
        known: Counter[str] = Counter()
        unknown: Counter[int] = Counter()
        players: dict[int, Player] = {}
        for g in kept:
            fed = g.opponent.federation
            if fed is None:
                unknown[g.opponent.rank] += 1
                players[g.opponent.rank] = g.opponent
            else:
                known[fed] += 1
        return cls(
            known,
            player.federation,
            tuple(players[r] for r in sorted(players)),
            sum(unknown.values()),
            max(unknown.values(), default=0),
        )

    @property
    def certain(self) -> bool:
        return not self.unknown and self.own is not None

    def foreign(self, rules: TitleRules) -> tuple[int, int]:
        """Federations other than the player's (:meth:`TitleRules.is_foreign`: FID only
        where the edition counts it)."""
        if self.own is None:  # the player's own may be any of them
            countable = [f for f in self.known if rules.is_foreign(f, "")]
            return max(0, len(countable) - 1), len(countable) + len(self.unknown)
        low = sum(1 for f in self.known if rules.is_foreign(f, self.own))
        return low, low + len(self.unknown)

    def own_games(self) -> tuple[int, int]:
        if self.own is None:
            return 0, max(self.known.values(), default=0) + self.unknown_games
        return self.known[self.own], self.known[self.own] + self.unknown_games

    def most_from_one(self) -> tuple[int, int]:
        most = max(self.known.values(), default=0)
        return max(most, self.most_against_one_unknown), most + self.unknown_games

    def who(self) -> str:
        """What the counts depend on, for a requirement's name."""
        parts = []
        if self.unknown:
            n = len(self.unknown)
            parts.append(f"{n} opponent{'s' if n > 1 else ''} of unknown federation")
        if self.own is None:
            parts.append("the player's own federation (unknown)")
        return " and ".join(parts)

    def names(self) -> str:
        return ", ".join(f"{p.name} ({p.rank})" for p in self.unknown)


def federation_verdicts(
    kept: Sequence[NormGame], spec: Requirements, rule: MixRule, n: int
) -> Iterator[tuple[bool, Callable[[], Check]]]:
    """The federation rules of ``rule`` (the one that surely applies) over ``kept``: each
    met surely, failed surely, or depending on players of unknown federation; in an
    :attr:`Requirements.optimistic` search a depending rule counts as met."""
    feds = Federations.of(kept, spec.player)
    foreign = feds.foreign(spec.rules)
    foreign_text = span_text(foreign)
    if feds.unknown:
        foreign_text += f" (unknown federation: {feds.names()})"
    exemption = rule.federation_exemption
    if exemption is not None:
        yield (
            True,
            lambda: Check(exemption, "federations", "exempt", f"{foreign_text} foreign", True),
        )
    # the exemption that surely holds lifts what it lifts (caps too, as the edition says);
    # one that only may hold makes every federation rule depend on it
    maybe_exempt = spec.exemption_possible if exemption is None else None

    def verdict(
        article: str, name: str, needed: str, actual: str, sure: bool, possible: bool
    ) -> tuple[bool, Callable[[], Check]]:
        possible = possible or maybe_exempt is not None
        depends = ""
        if not sure and possible:
            reasons = []
            if feds.unknown or feds.own is None:
                reasons.append(feds.who())
            if maybe_exempt is not None:
                reasons.append(
                    f"the exemption {maybe_exempt}, which players of unknown federation may give"
                )
            depends = "; ".join(reasons)
        shown = f"{name} (depends on {depends})" if depends else name
        return (
            sure or (spec.optimistic and possible),
            lambda: Check(article, shown, needed, actual, sure, depends),
        )

    if exemption is None:
        low, high = foreign
        need_foreign = rule.min_foreign_federations
        yield verdict(
            rule.foreign_article,
            "foreign federations",
            f"≥ {need_foreign}",
            foreign_text,
            low >= need_foreign,
            high >= need_foreign,
        )
    own_low, own_high = feds.own_games()
    own_name = feds.own if feds.own is not None else "the player's federation"
    own_cap = rule.max_own_federation
    if own_cap is not None:
        yield verdict(
            rule.caps_article,
            f"opponents from {own_name}",
            f"≤ {own_cap}",
            span_text((own_low, own_high)),
            own_high <= own_cap,
            own_low <= own_cap,
        )
    one_cap = rule.max_one_federation
    if one_cap is not None:
        one_low, one_high = feds.most_from_one()
        if feds.certain:
            fed, most = (
                max(feds.known.items(), key=lambda kv: (kv[1], kv[0])) if feds.known else ("-", 0)
            )
            one_text = f"{most} ({fed})"
        else:
            one_text = span_text((one_low, one_high))
        yield verdict(
            rule.caps_article,
            "opponents from one federation",
            f"≤ {one_cap}",
            one_text,
            one_high <= one_cap,
            one_low <= one_cap,
        )
    other_min = rule.min_other_federations
    if other_min is not None:
        other = (n - own_high, n - own_low)
        yield verdict(
            rule.other_article,
            "opponents from other federations",
            f"≥ {other_min}",
            span_text(other),
            other[0] >= other_min,
            other[1] >= other_min,
        )


def span_text(values: tuple[int, int]) -> str:
    low, high = values
    return str(low) if low == high else f"{low} to {high}"


def foreign_count(feds: Counter[str], own: str, rules: TitleRules) -> int:
    """How many of ``feds`` are federations other than ``own`` (1.43; FID by the edition)."""
    foreign = rules.is_foreign
    return sum(1 for f in feds if foreign(f, own))
