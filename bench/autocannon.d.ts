/** The part of autocannon's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    headers?: Record<string, string>;
  }

  interface Result {
    /** Per-second samples: `average` is requests per second. */
    requests: { average: number; total: number };
    /** Milliseconds. */
    latency: { p50: number; p99: number; average: number; max: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }

  /** The run's result when it ends: after `duration`, or once `stop()` is called. */
  export default function autocannon(options: Options): Promise<Result> & { stop(): void };
}
