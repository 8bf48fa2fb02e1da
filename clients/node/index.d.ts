export class Interval {
  constructor(lower: number | null, upper: number | null);
  lower: number | null;
  upper: number | null;
  readonly width: number;
  contains(x: number): boolean;
  toPostgres(): string;
}
export class Rating {
  constructor(rating?: number, rd?: number, volatility?: number);
  rating: number;
  rd: number;
  volatility: number;
  interval(k?: number): Interval;
  readonly lower: number;
  readonly upper: number;
  confidenceInterval(confidence?: number): Interval;
  toPostgres(): string;
  toJSON(): { rating: number; rd: number; volatility: number };
}
export function registerTypes<T>(client: T): Promise<T>;
export function glicko2Types(queryable: unknown, base?: unknown): Promise<{ getTypeParser(oid: number, format?: string): unknown }>;
export function parseRating(text: string | null): Rating | null;
export function parseInterval(text: string | null): Interval | null;
