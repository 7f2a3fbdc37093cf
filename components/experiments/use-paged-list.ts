"use client";
// One paged list of the experiment page: the first page comes with the server-rendered page,
// later ones from tRPC as the reader asks for them (the previous page stays while the next loads).
import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import { useState } from "react";

export interface ListPage {
  offset: number;
  limit: number;
  total: number;
}

export function usePagedList<TPage extends ListPage, TError extends { message: string }, TKey extends QueryKey>(
  first: TPage,
  optionsFor: (offset: number) => UseQueryOptions<TPage, TError, TPage, TKey>,
) {
  const [offset, setOffset] = useState(0);
  const later = useQuery({ ...optionsFor(offset), enabled: offset > 0, placeholderData: keepPreviousData });
  const page = offset === 0 ? first : (later.data ?? first);
  return {
    page,
    pager: {
      offset: page.offset,
      limit: page.limit,
      total: page.total,
      busy: offset > 0 && later.isFetching,
      error: offset > 0 ? (later.error?.message ?? null) : null,
      onPage: setOffset,
    },
  };
}
