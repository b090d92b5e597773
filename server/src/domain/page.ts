/** One page of a list: newest first, ties broken by id descending; `total` counts every match. */
export interface PageRequest {
  limit: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface DateRange {
  startDate?: Date;
  endDate?: Date;
}

/** A page without a total: counting every match costs more than a page at a million rows; `more` says if a next page exists. */
export interface Slice<T> {
  items: T[];
  more: boolean;
}
