// The demo venue's off-chain side: market texts in the venue's public (Gamma) shape and wallet profiles, all
// drawn from the seeded generator. JsonArrayWriter streams a JSON array to a file one object at a time, so
// metadata for tens of thousands of markets never sits in memory.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Prng } from './prng.js';

/** The venue's categories; a market with none is shown as `Other`. */
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

export const ASSET_NAMES: Record<string, string> = { BTC: 'Bitcoin', ETH: 'Ethereum', SOL: 'Solana', XRP: 'XRP' };

const PEOPLE = [
  'Alex Rivera',
  'Maria Chen',
  'John Okafor',
  'Sofia Rossi',
  'David Kim',
  'Laura Novak',
  'Omar Haddad',
  'Nina Petrova',
  'Carlos Mendes',
  'Grace Liu',
  'Henry Walsh',
  'Ivy Tanaka',
  'Jonas Berg',
  'Kara Singh',
  'Leo Dubois',
  'Mila Horvat',
];
const PLACES = [
  'Ohio',
  'Texas',
  'Georgia',
  'Arizona',
  'Nevada',
  'Michigan',
  'Quebec',
  'Bavaria',
  'Lombardy',
  'Ontario',
];
const OFFICES = ['governor', 'senate', 'mayoral', 'parliamentary', 'presidential'];
const TEAMS = [
  'Lions',
  'Hawks',
  'Sharks',
  'Wolves',
  'Bears',
  'Falcons',
  'Tigers',
  'Rangers',
  'Comets',
  'Pirates',
  'Knights',
  'Storm',
];
const LEAGUES = ['Premier League', 'NBA', 'NFL', 'Champions League', 'NHL', 'Serie A', 'MLS', 'La Liga'];
const COMPANIES = [
  'Nvidia',
  'Apple',
  'Tesla',
  'Microsoft',
  'Meta',
  'Amazon',
  'Alphabet',
  'Netflix',
  'OpenAI',
  'Anthropic',
];
const PRODUCTS = ['a new flagship phone', 'a foldable device', 'a reasoning model', 'AR glasses', 'a robotaxi service'];
const FILMS = ['Starfall', 'The Last Orchard', 'Midnight Circuit', 'Paper Kings', 'Glass Harbor', 'Iron Meadow'];
const WORDS = ['tariff', 'crypto', 'inflation', 'AI', 'border', 'China', 'record', 'beautiful'];
const CITIES = ['New York', 'London', 'Tokyo', 'Chicago', 'Paris', 'Seoul', 'Miami', 'Toronto', 'Berlin', 'Dubai'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const ADJECTIVES = [
  'Gleaming',
  'Quiet',
  'Rapid',
  'Lucky',
  'Bold',
  'Hidden',
  'Frosty',
  'Golden',
  'Silent',
  'Wild',
  'Clever',
  'Brave',
];
const NOUNS = [
  'Hydrant',
  'Falcon',
  'Otter',
  'Comet',
  'Lantern',
  'Badger',
  'Harbor',
  'Maple',
  'Cobalt',
  'Pebble',
  'Meadow',
];
const BIOS = [
  'Trading the news.',
  'Macro, sports and the occasional long shot.',
  'Probabilities, not opinions.',
  'Here for the election markets.',
  'Crypto degen. Up or down?',
  'Market making since the AMM days.',
  '',
];

export interface MarketText {
  question: string;
  slug: string;
}

export interface EventText {
  title: string;
  slug: string;
  questions: { question: string; slug: string; groupItemTitle: string }[];
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

function monthOf(ts: number): string {
  return MONTHS[new Date(ts * 1000).getUTCMonth()]!;
}

function dayOf(ts: number): string {
  const date = new Date(ts * 1000);
  return `${MONTHS[date.getUTCMonth()]!} ${date.getUTCDate()}`;
}

/** A binary market's question for a category (null = Other), dated by its end. */
export function binaryMarketText(category: string | null, prng: Prng, seq: number, endTs: number): MarketText {
  let question: string;
  switch (category) {
    case 'Politics':
      question = `Will ${prng.pick(PEOPLE)} win the ${prng.pick(PLACES)} ${prng.pick(OFFICES)} race?`;
      break;
    case 'Sports':
      question = `Will the ${prng.pick(TEAMS)} beat the ${prng.pick(TEAMS)} on ${dayOf(endTs)}?`;
      break;
    case 'Crypto':
      question = `Will ${prng.pick(['Bitcoin', 'Ethereum', 'Solana'])} reach $${prng.range(2, 30) * 5}k by ${dayOf(endTs)}?`;
      break;
    case 'Finance':
      question = `Will ${prng.pick(COMPANIES)} close above $${prng.range(10, 90) * 10} on ${dayOf(endTs)}?`;
      break;
    case 'Culture':
      question = `Will "${prng.pick(FILMS)}" gross over $${prng.range(2, 30) * 10}M opening weekend?`;
      break;
    case 'Mentions':
      question = `Will ${prng.pick(PEOPLE)} say "${prng.pick(WORDS)}" this week?`;
      break;
    case 'Weather':
      question = `Will ${prng.pick(CITIES)} hit ${prng.range(60, 100)}°F on ${dayOf(endTs)}?`;
      break;
    case 'Economics':
      question = `Will US CPI come in above ${prng.range(20, 40) / 10}% for ${monthOf(endTs)}?`;
      break;
    case 'Tech':
      question = `Will ${prng.pick(COMPANIES)} release ${prng.pick(PRODUCTS)} by ${dayOf(endTs)}?`;
      break;
    default:
      question = `Will ${prng.pick(PEOPLE)} announce a ${prng.pick(['book', 'tour', 'podcast', 'comeback'])} by ${dayOf(endTs)}?`;
  }
  return { question, slug: `${slugify(question)}-${seq}` };
}

/** A neg-risk event: a title and `count` mutually exclusive questions. */
export function negRiskEventText(
  category: string | null,
  prng: Prng,
  seq: number,
  count: number,
  endTs: number,
): EventText {
  let title: string;
  let names: string[];
  let questionOf: (name: string) => string;
  switch (category) {
    case 'Sports': {
      const league = prng.pick(LEAGUES);
      title = `${league} winner ${monthOf(endTs)}`;
      names = TEAMS;
      questionOf = (name) => `Will the ${name} win the ${league} in ${monthOf(endTs)}?`;
      break;
    }
    case 'Economics': {
      title = `Fed decision in ${monthOf(endTs)}?`;
      names = [
        'No change',
        '25 bps cut',
        '50+ bps cut',
        '25 bps hike',
        '50+ bps hike',
        'Emergency cut',
        'Pause then cut',
        'Other',
      ];
      questionOf = (name) => `Fed decision in ${monthOf(endTs)}: ${name}?`;
      break;
    }
    case 'Weather': {
      const city = prng.pick(CITIES);
      title = `Highest temperature in ${city} on ${dayOf(endTs)}?`;
      names = ['<70°F', '70-74°F', '75-79°F', '80-84°F', '85-89°F', '90-94°F', '95-99°F', '100°F+'];
      questionOf = (name) => `Will the highest temperature in ${city} be ${name} on ${dayOf(endTs)}?`;
      break;
    }
    case 'Tech': {
      title = `Best AI model end of ${monthOf(endTs)}?`;
      names = COMPANIES;
      questionOf = (name) => `Will ${name} have the best AI model at the end of ${monthOf(endTs)}?`;
      break;
    }
    default: {
      const place = prng.pick(PLACES);
      const office = prng.pick(OFFICES);
      title = `${place} ${office} election winner`;
      names = PEOPLE;
      questionOf = (name) => `Will ${name} win the ${place} ${office} election?`;
    }
  }
  const start = prng.int(names.length);
  const questions = [];
  for (let i = 0; i < count; i++) {
    const name = names[(start + i) % names.length]!;
    const question = questionOf(name);
    questions.push({ question, slug: `${slugify(question)}-${seq}-${i}`, groupItemTitle: name });
  }
  return { title, slug: `${slugify(title)}-${seq}`, questions };
}

/** A 15-minute crypto round: "Bitcoin Up or Down - October 3, 14:15-14:30 UTC", slug btc-updown-15m-<startTs>. */
export function updownText(asset: string, startTs: number): MarketText {
  const hhmm = (ts: number) => new Date(ts * 1000).toISOString().slice(11, 16);
  return {
    question: `${ASSET_NAMES[asset]!} Up or Down - ${dayOf(startTs)}, ${hhmm(startTs)}-${hhmm(startTs + 900)} UTC`,
    slug: `${asset.toLowerCase()}-updown-15m-${startTs}`,
  };
}

export function imageUrl(slug: string): string {
  return `https://images.demo-venue.example/markets/${slug}.png`;
}

export interface DemoProfile {
  proxyWallet: string;
  name: string;
  pseudonym: string;
  profileImage: string | null;
  bio: string;
}

export function profileFor(address: string, prng: Prng): DemoProfile {
  const pseudonym = `${prng.pick(ADJECTIVES)}-${prng.pick(NOUNS)}`;
  const named = prng.chance(0.6);
  return {
    proxyWallet: address,
    name: named ? `${pseudonym.split('-')[1]!.toLowerCase()}${prng.range(1, 9999)}` : pseudonym,
    pseudonym,
    profileImage: prng.chance(0.5) ? `https://images.demo-venue.example/profiles/${address.slice(2, 10)}.png` : null,
    bio: prng.pick(BIOS),
  };
}

/** Streams a JSON array to a file, one element per line. */
export class JsonArrayWriter {
  private readonly fd: number;
  private pending = '[\n';
  private count = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  get length(): number {
    return this.count;
  }

  push(value: unknown): void {
    this.pending += (this.count === 0 ? '' : ',\n') + JSON.stringify(value);
    this.count++;
    if (this.pending.length > 1 << 20) this.flush();
  }

  close(): void {
    this.pending += this.count === 0 ? ']\n' : '\n]\n';
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    writeSync(this.fd, this.pending, null, 'utf8');
    this.pending = '';
  }
}
