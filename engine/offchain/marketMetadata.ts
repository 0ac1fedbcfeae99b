// Market metadata (replay/README.md, Inputs): the venue's public market objects in Gamma shape (older strapi objects
// and CLOB objects too), normalized to the spec's Market fields (2.1). Category: the object's `category` when it
// names one of the nine, else the first of its own or its event's tags that does; none means Other.
import { InputError } from '../inputError.js';

export const CATEGORIES = [
  'Politics',
  'Sports',
  'Crypto',
  'Finance',
  'Culture',
  'Mentions',
  'Weather',
  'Economics',
  'Tech',
] as const;

export interface MarketMetadata {
  conditionId: string;
  question: string | null;
  slug: string | null;
  eventSlug: string | null;
  /** Its event's title (`events[0].title`); absent from markets stored before titles were kept. */
  eventTitle?: string | null;
  image: string | null;
  category: string | null;
  outcomes: string[] | null;
  negRisk: boolean;
  /** Decimal token ids by outcome index, when the object lists them. */
  tokenIds: string[] | null;
  /** A legacy crypto round's strike as the market object carries it (`eventMetadata.priceToBeat`), USD. */
  priceToBeat?: number | null;
  /**
   * What the venue's Data API shapes show beside (docs/venue-api.md), kept when the object has them: its end date
   * as written, its icon (when other than its image) and its event's Gamma id.
   */
  endDate?: string;
  icon?: string;
  eventId?: number;
}

/** The object's own fields the Data API shapes show, those it has (absent ones leave no key: stored as before). */
function venueApiFields(object: Record<string, unknown>, event: Record<string, unknown> | undefined) {
  const fields: Pick<MarketMetadata, 'endDate' | 'icon' | 'eventId'> = {};
  const endDate = text(object.endDate ?? object.end_date_iso ?? object.endDateIso);
  if (endDate !== null) fields.endDate = endDate;
  const icon = text(object.icon);
  if (icon !== null && icon !== text(object.image)) fields.icon = icon;
  const eventId = Number(event?.id);
  if (Number.isSafeInteger(eventId) && eventId > 0) fields.eventId = eventId;
  return fields;
}

/** `eventMetadata.priceToBeat` of the object or of its event: a positive number, or null. */
function priceToBeatOf(object: Record<string, unknown>, event: Record<string, unknown> | undefined): number | null {
  for (const holder of [object.eventMetadata, event?.eventMetadata]) {
    const value = (holder as Record<string, unknown> | undefined)?.priceToBeat;
    const price = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof price === 'number' && Number.isFinite(price) && price > 0) return price;
  }
  return null;
}

const BY_LOWER = new Map(CATEGORIES.map((c) => [c.toLowerCase(), c]));

function categoryOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return BY_LOWER.get(value.trim().toLowerCase()) ?? null;
}

/** Gamma encodes arrays as JSON strings; older objects use arrays. */
function stringArray(value: unknown): string[] | null {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return Array.isArray(parsed) && parsed.every((v) => typeof v === 'string' || typeof v === 'number')
    ? parsed.map(String)
    : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function tagCategory(tags: unknown): string | null {
  if (!Array.isArray(tags)) return null;
  for (const tag of tags) {
    const found = categoryOf(typeof tag === 'string' ? tag : (tag?.label ?? tag?.slug));
    if (found) return found;
  }
  return null;
}

/**
 * A Protocol V2 market's condition (docs/design.md 10): Gamma objects of `version` "v2" list `positionIds` (decimal,
 * YES first), and the condition is a position id without its outcome byte, 0x + 62 hex; null for other objects.
 */
function v2ConditionOf(object: Record<string, unknown>): { conditionId: string; positionIds: string[] } | null {
  if (object.version !== 'v2') return null;
  const positionIds = stringArray(object.positionIds ?? object.position_ids);
  const yes = positionIds?.[0];
  if (!positionIds || yes === undefined || !/^[0-9]{1,78}$/.test(yes)) return null;
  const hex = BigInt(yes).toString(16).padStart(64, '0');
  return hex.length === 64 ? { conditionId: '0x' + hex.slice(0, 62), positionIds } : null;
}

/** Normalizes one market object; null when it has no usable condition id. */
export function parseMarketMetadata(object: Record<string, unknown>): MarketMetadata | null {
  const v2 = v2ConditionOf(object);
  const conditionId = v2?.conditionId ?? text(object.conditionId ?? object.condition_id);
  // A condition id, or a Protocol V2 condition's bytes31 id (0x + 62 hex).
  if (!conditionId || !/^0x(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{62})$/.test(conditionId)) return null;
  const events = Array.isArray(object.events) ? (object.events as Array<Record<string, unknown>>) : [];
  const event = events[0];
  const clobTokens = Array.isArray(object.tokens)
    ? (object.tokens as Array<Record<string, unknown>>).map((t) => String(t.token_id ?? ''))
    : null;
  const tokenIds = v2?.positionIds ?? stringArray(object.clobTokenIds ?? object.clob_token_ids) ?? clobTokens;
  const outcomes =
    stringArray(object.outcomes) ??
    (Array.isArray(object.tokens)
      ? (object.tokens as Array<Record<string, unknown>>).map((t) => String(t.outcome ?? ''))
      : null);
  return {
    conditionId: conditionId.toLowerCase(),
    question: text(object.question),
    slug: text(object.slug ?? object.market_slug),
    eventSlug: text(event?.slug ?? object.eventSlug),
    eventTitle: text(event?.title ?? object.eventTitle),
    image: text(object.image ?? object.icon),
    category: categoryOf(object.category) ?? tagCategory(object.tags) ?? tagCategory(event?.tags),
    outcomes,
    negRisk: object.negRisk === true || object.neg_risk === true,
    tokenIds: tokenIds && tokenIds.every((id) => /^[0-9]+$/.test(id)) ? tokenIds : null,
    priceToBeat: priceToBeatOf(object, event),
    ...venueApiFields(object, event),
  };
}

const WANTED = 'market objects (Gamma shape, each with a conditionId of 0x and 64 hex)';

/** What a JSON value is, for a refusal: "null", "an object with keys data, next_cursor", "a string". */
function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    return value.length === 0 ? 'an empty array' : `an array of ${value.length} value${value.length === 1 ? '' : 's'}`;
  }
  if (typeof value !== 'object') return `a ${typeof value}`;
  const keys = Object.keys(value);
  if (keys.length === 0) return 'an empty object';
  return `an object with keys ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', ...' : ''}`;
}

/** Why a source holding no market object is refused, naming what it holds instead. */
function noMarketReason(document: unknown, values: unknown[], ndjson: boolean): string {
  if (ndjson && values.length === 0) return `is empty, not ${WANTED}`;
  if (ndjson || Array.isArray(document)) {
    const what = ndjson ? `${values.length} JSON lines` : describeJson(document);
    return `holds ${what}${values.length > 0 ? ` (the first is ${describeJson(values[0])})` : ''}, not ${WANTED}`;
  }
  // A page of a paginated API ({ data: [...], next_cursor }): the objects are in its data array.
  const isPage = Array.isArray((document as Record<string, unknown> | null)?.data);
  const page = isPage ? '; a page of an API answer? give its data array' : '';
  return `holds ${describeJson(document)}, not ${WANTED}${page}`;
}

/**
 * A metadata file: a JSON array of market objects (or one object), or NDJSON with one object per line. Objects
 * without a usable condition id are skipped, but a source with no market object at all is refused (InputError
 * naming what it holds): loading nothing is a wrong file, not an empty venue.
 */
export function parseMetadataText(textContent: string, file: string): MarketMetadata[] {
  const trimmed = textContent.trim();
  let document: unknown;
  let values: unknown[];
  let ndjson = false;
  try {
    document = JSON.parse(trimmed);
    values = Array.isArray(document) ? document : [document];
  } catch (error) {
    if (trimmed.startsWith('[')) throw new InputError(file, 0, `not a valid JSON array (${(error as Error).message})`);
    ndjson = true;
    values = [];
    const lines = textContent.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.trim() === '') continue;
      try {
        values.push(JSON.parse(lines[i]!));
      } catch {
        throw new InputError(file, i + 1, 'not a JSON object');
      }
    }
  }
  const markets: MarketMetadata[] = [];
  for (const value of values) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const market = parseMarketMetadata(value as Record<string, unknown>);
    if (market) markets.push(market);
  }
  if (markets.length === 0) throw new InputError(file, 0, noMarketReason(document, values, ndjson));
  return markets;
}

/** One page of the venue's market API (cli/fetchMarketPages.ts). */
export interface MarketPage {
  markets: MarketMetadata[];
  /** Objects on the page, with a usable conditionId or not: the next offset counts them all. */
  objects: number;
  /** A cursor page's next cursor, null at the end; undefined for a page of an offset API (a JSON array). */
  nextCursor?: string | null;
}

/** The cursor after the last page: absent, empty, or the CLOB API's "LTE=" (base64 of -1). */
function nextCursorOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && value !== 'LTE=' ? value : null;
}

/**
 * A page of the market API: a JSON array of market objects (Gamma's /markets, paged by offset) or an object whose
 * `data` array holds them (newer endpoints, paged by `next_cursor`). Anything else, or an item that is not an
 * object, is refused (InputError naming the page). Objects without a usable conditionId are skipped.
 */
export function parseMarketPage(textContent: string, page: string): MarketPage {
  let document: unknown;
  try {
    document = JSON.parse(textContent);
  } catch (error) {
    throw new InputError(page, 0, `not JSON (${(error as Error).message})`);
  }
  const data = (document as { data?: unknown } | null)?.data;
  const cursorPage = !Array.isArray(document) && Array.isArray(data);
  const items: unknown[] | null = Array.isArray(document) ? document : cursorPage ? (data as unknown[]) : null;
  if (items === null) {
    throw new InputError(
      page,
      0,
      `holds ${describeJson(document)}, not a page of market objects ` +
        '(a JSON array, or an object with a data array and next_cursor)',
    );
  }
  const markets: MarketMetadata[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new InputError(page, 0, `item ${i + 1} is ${describeJson(item)}, not a market object`);
    }
    const market = parseMarketMetadata(item as Record<string, unknown>);
    if (market) markets.push(market);
  }
  const nextCursor = cursorPage ? nextCursorOf((document as { next_cursor?: unknown }).next_cursor) : undefined;
  return { markets, objects: items.length, nextCursor };
}
