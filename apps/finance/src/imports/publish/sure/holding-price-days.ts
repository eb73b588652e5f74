// Which prices of a Sure file's Holding records Hearth must store so each holding is valued at its
// price. The sync prices a day's holding at the latest of the stored price on or before the day
// and the position's last trade price, a stored price winning a tie (holdings/holding-calculator.ts):
// a holding that rule already prices right needs no row (a Hearth export's holdings never do).
// Pure: prices in 10^-4 of their currency.

/** One account's position in a security, as the sync would price it from the import's rows alone. */
export interface PricedPosition {
  securityId: string;
  currency: string;
  /** The file's holdings, one a day. */
  holdings: readonly { date: string; price: bigint }[];
  /** Its trades (the file's and the import's), by day, same-day ones in the order they apply; null: a price in another currency. */
  trades: readonly { date: string; price: bigint | null }[];
}

export interface HoldingPrice {
  securityId: string;
  currency: string;
  date: string;
  price: bigint;
}

/**
 * The prices to store, per security and currency, walking its days in order: a holding the
 * stored prices so far and its trades would price otherwise stores its price that day. A day
 * stores one price: another account's holding of that day at another price keeps it (the family
 * has one price a day per security, as Sure does).
 */
export function holdingPricesToStore(positions: readonly PricedPosition[]): HoldingPrice[] {
  const groups = new Map<string, PricedPosition[]>();
  for (const position of positions) {
    const key = `${position.securityId}\u0000${position.currency}`;
    const group = groups.get(key);
    if (group) group.push(position);
    else groups.set(key, [position]);
  }
  return [...groups.values()].flatMap(pricesOfSecurity);
}

function pricesOfSecurity(positions: PricedPosition[]): HoldingPrice[] {
  const { securityId, currency } = positions[0]!;
  const walks = positions.map((position) => ({
    position,
    byDay: new Map(position.holdings.map((h) => [h.date, h.price])),
    next: 0,
    last: null as Trade | null,
  }));
  const days = [...new Set(positions.flatMap((position) => position.holdings.map((holding) => holding.date)))].sort();
  const stored: HoldingPrice[] = [];
  for (const date of days) {
    for (const walk of walks) {
      const price = walk.byDay.get(date);
      if (price === undefined) continue;
      const { trades } = walk.position;
      for (; walk.next < trades.length && trades[walk.next]!.date <= date; walk.next++) walk.last = trades[walk.next]!;
      const latest = stored.at(-1);
      if (latest?.date === date || price <= 0n) continue;
      if (priceOfDay(latest ?? null, walk.last) !== price) stored.push({ securityId, currency, date, price });
    }
  }
  return stored;
}

type Trade = PricedPosition["trades"][number];

/** The sync's rule: the later of the stored price and the last trade's, the stored one on a tie; null: unknown here. */
function priceOfDay(stored: HoldingPrice | null, trade: Trade | null): bigint | null {
  if (stored && (!trade || stored.date >= trade.date)) return stored.price;
  return trade?.price ?? null;
}
