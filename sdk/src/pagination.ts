import type { PageParams } from './types.js';

/** One page of a list, as the API answered it. */
export interface Page<Item> {
  data: Item[];
  /** Items matching the filters, on every page. */
  total: number;
  limit: number;
  offset: number;
  /** Whether items follow this page. */
  hasMore: boolean;
}

/** Page size used when iterating with `for await`: the API's maximum, so the fewest requests. */
export const ITERATION_PAGE_SIZE = 100;

export type PageFetcher<Item> = (page: PageParams) => Promise<Page<Item>>;

/**
 * The result of `list()`: iterate it with `for await` to get every item across pages (fetched lazily,
 * `limit` at a time, default 100), or call `page()` for a single page with its `total`.
 */
export class PageIterable<Item> implements AsyncIterable<Item> {
  constructor(
    private readonly fetchPage: PageFetcher<Item>,
    private readonly idOf: (item: Item) => string,
    private readonly start: PageParams,
  ) {}

  /** One page: `limit` and `offset` as given here, else as given to `list()`, else the API's (20, 0). */
  page(params: PageParams = {}): Promise<Page<Item>> {
    return this.fetchPage({ ...this.start, ...params });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    const limit = this.start.limit ?? ITERATION_PAGE_SIZE;
    let offset = this.start.offset ?? 0;
    // Lists are newest first and paged by offset: items created while we iterate push older ones down,
    // so the head of a page can repeat the tail of the previous one. Those repeats are skipped.
    let previousIds = new Set<string>();
    for (;;) {
      const page = await this.fetchPage({ limit, offset });
      for (const item of page.data) if (!previousIds.has(this.idOf(item))) yield item;
      if (!page.hasMore || page.data.length === 0) return;
      previousIds = new Set(page.data.map(this.idOf));
      offset += page.data.length;
    }
  }

  /** Every item in one array. Mind the size of what you ask for; prefer `for await` for large lists. */
  async toArray(): Promise<Item[]> {
    const items: Item[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}

/** Turns a list answer (`{<items>, total, limit, offset}`) into a Page. */
export function pageOf<Item>(data: Item[], body: { total: number; limit: number; offset: number }): Page<Item> {
  return { data, total: body.total, limit: body.limit, offset: body.offset, hasMore: body.offset + data.length < body.total };
}
