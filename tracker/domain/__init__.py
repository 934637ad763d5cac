"""Small typed values of the chess world: titles, players, results, tournaments, federations,
the FIDE conversion tables and the rate of play. Nothing here knows a regulation's edition."""
