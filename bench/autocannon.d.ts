// The part of autocannon 9's programmatic API the API benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Request {
    path?: string;
    setupRequest?(request: Request): Request;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: Request[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
