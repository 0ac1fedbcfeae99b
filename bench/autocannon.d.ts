// The part of autocannon 9's programmatic API the API benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Options { url: string; connections?: number; duration?: number; headers?: Record<string, string> }
  interface Histogram { average: number; p50: number; p99: number }
  interface Result { requests: Histogram; latency: Histogram }
  export default function autocannon(options: Options): Promise<Result>;
}
