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
