import { afterAll, beforeAll } from 'vitest';

/**
 * What a test file's tests share: `start` runs before the first of them, `stop` after the last. The value returned stands
 * in for what `start` makes, so that a file names it once at the top; using it before then throws.
 */
export function sharedByFile<T extends object>(what: string, start: () => Promise<T>, stop?: (value: T) => Promise<void>): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await start();
  });
  if (stop)
    afterAll(async () => {
      if (value) await stop(value);
    });
  const started = (): T => {
    if (!value) throw new Error(`${what} is used before the file's beforeAll started it`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, key) {
      const target = started();
      const property: unknown = Reflect.get(target, key, target);
      return typeof property === 'function' ? property.bind(target) : property;
    },
    has: (_, key) => Reflect.has(started(), key),
  });
}
