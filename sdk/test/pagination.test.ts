import { describe, expect, it } from 'vitest';
import { PageIterable, pageOf, type Page } from '../src/pagination.js';
import type { PageParams } from '../src/types.js';

interface Item {
  id: string;
}

/** A list of `count` items, newest first, that grows by `growth` items before each page after the first. */
function growingList(count: number, growth = 0) {
  let items = Array.from({ length: count }, (_, i) => ({ id: `item_${count - i}` }));
  const asked: PageParams[] = [];
  const fetchPage = async (page: PageParams): Promise<Page<Item>> => {
    if (asked.length > 0 && growth > 0) {
      const newer = Array.from({ length: growth }, (_, i) => ({ id: `new_${asked.length}_${i}` }));
      items = [...newer, ...items];
    }
    asked.push(page);
    const limit = page.limit ?? 20;
    const offset = page.offset ?? 0;
    return pageOf(items.slice(offset, offset + limit), { total: items.length, limit, offset });
  };
  return { fetchPage, asked };
}

describe('PageIterable', () => {
  it('walks every page, `limit` at a time, and stops after the last', async () => {
    const list = growingList(5);
    const iterable = new PageIterable(list.fetchPage, (item) => item.id, { limit: 2 });
    expect((await iterable.toArray()).map((i) => i.id)).toEqual(['item_5', 'item_4', 'item_3', 'item_2', 'item_1']);
    expect(list.asked).toEqual([
      { limit: 2, offset: 0 },
      { limit: 2, offset: 2 },
      { limit: 2, offset: 4 },
    ]);
  });

  it('asks once for an empty list, and 100 at a time by default', async () => {
    const list = growingList(0);
    expect(await new PageIterable(list.fetchPage, (item) => item.id, {}).toArray()).toEqual([]);
    expect(list.asked).toEqual([{ limit: 100, offset: 0 }]);
  });

  it('skips the repeats that items created during the walk push onto the next page', async () => {
    const list = growingList(6, 1);
    const seen = (await new PageIterable(list.fetchPage, (item) => item.id, { limit: 3 }).toArray()).map((i) => i.id);
    expect(seen).toEqual(['item_6', 'item_5', 'item_4', 'item_3', 'item_2', 'item_1']);
  });

  it('page() takes its own limit and offset over those of list()', async () => {
    const list = growingList(5);
    const iterable = new PageIterable(list.fetchPage, (item) => item.id, { limit: 2 });
    expect(await iterable.page()).toMatchObject({ total: 5, limit: 2, offset: 0, hasMore: true });
    expect(await iterable.page({ offset: 4 })).toMatchObject({ data: [{ id: 'item_1' }], hasMore: false });
    expect(await iterable.page({ limit: 5 })).toMatchObject({ hasMore: false });
  });

  it('can be broken out of early without fetching more', async () => {
    const list = growingList(10);
    for await (const item of new PageIterable(list.fetchPage, (i) => i.id, { limit: 3 })) if (item.id === 'item_9') break;
    expect(list.asked).toHaveLength(1);
  });
});
