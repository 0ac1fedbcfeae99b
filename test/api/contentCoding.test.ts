// Which coding an answer goes in, by Accept-Encoding (RFC 9110 12.5.3): brotli when named and weighted at least as
// gzip, gzip when taken, none when refused; the fills feed's own rule takes gzip alone.
import t from 'tap';
import { acceptsGzip, answerCoding } from '../../api/transport/contentCoding.js';

t.test('unit: answerCoding', async (t) => {
  const cases: Array<[string, 'br' | 'gzip' | null]> = [
    ['', null],
    ['identity', null],
    ['deflate', null],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['br', 'br'],
    ['BR', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip,br', 'br'],
    ['brotli', null],
    ['*', 'gzip'],
    ['*;q=0.5', 'gzip'],
    ['*;q=0', null],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0', null],
    ['br;q=0, *', 'gzip'],
    ['br;q=0.5, gzip;q=1', 'gzip'],
    ['br;q=1, gzip;q=0.5', 'br'],
    ['gzip;q=0.8, br;q=0.8', 'br'],
    ['gzip;q=0, br;q=0.1', 'br'],
    ['gzip;q=0', null],
    ['gzip;q=0, *', null],
    ['br;q=0.2, *;q=0.5', 'gzip'],
    ['br;q=abc, gzip', 'gzip'],
    [' br ; q=1 , gzip;q=0.1', 'br'],
  ];
  for (const [header, coding] of cases) t.equal(answerCoding(header), coding, JSON.stringify(header));
});

t.test('unit: acceptsGzip (the fills feed) takes gzip whatever else is named', async (t) => {
  const cases: Array<[string, boolean]> = [
    ['', false],
    ['br', false],
    ['gzip, deflate, br', true],
    ['br;q=1, gzip;q=0.5', true],
    ['gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*', true],
    ['*;q=0', false],
    ['x-gzip;q=0.1', true],
  ];
  for (const [header, accepted] of cases) t.equal(acceptsGzip(header), accepted, JSON.stringify(header));
});
