/** One priced search call: a query and the 1-based result page to read. */
export interface SearchCall {
  query: string;
  page: number;
}

/** How far a run has read one query: its last page, and whether the next page is worth a search. */
export interface QueryCursor {
  query: string;
  lastPage: number;
  /** The last page came back full and brought the run a new row. */
  more: boolean;
}

export interface RoundSearchInput {
  /** Queries offered for this round: the plan's in round 1, the reasoner's follow-ups later. */
  proposed: readonly string[];
  /** Every query the run has searched so far, in first-use order. */
  cursors: readonly QueryCursor[];
  /** Deepest result page the run reads of any query. */
  maxPage: number;
}

/**
 * The searches of one round. First each proposed query the run has not searched yet (trimmed, once,
 * in the order offered) at page 1; then the next page of every earlier query whose last page was worth
 * following (`more`, see cursorsAfterRound), in first-use order, up to `maxPage`. Follow-up queries on
 * a small index often rank the same pages, so reading deeper is what finds the hits ranked past the
 * first page. An empty answer means the search is exhausted.
 */
export function roundSearches(input: RoundSearchInput): SearchCall[] {
  const searched = new Set(input.cursors.map((c) => c.query));
  const fresh = [...new Set(input.proposed.map((q) => q.trim()))].filter((q) => q.length > 0 && !searched.has(q));
  const deeper = input.cursors
    .filter((c) => c.more && c.lastPage < input.maxPage)
    .map((c) => ({ query: c.query, page: c.lastPage + 1 }));
  return [...fresh.map((query) => ({ query, page: 1 })), ...deeper];
}

/** One search call of a round and the hits it answered. */
export interface SearchAnswer {
  call: SearchCall;
  hits: readonly { url: string }[];
  /**
   * The provider's page came back full, judged before our site and date checks dropped hits (absent:
   * judged by `hits` against `limit`). A dated or site-limited search can keep few hits of a full page.
   */
  more?: boolean;
}

export interface RoundCursorsInput {
  /** The round's calls with their hits, in call order. */
  answers: readonly SearchAnswer[];
  /** URLs that brought the run something this round: the sources of its new rows. */
  yieldingUrls: ReadonlySet<string>;
  /** Hit URLs of earlier rounds. */
  seenBefore: ReadonlySet<string>;
  /** Hits asked of each call: a page with fewer is its query's last. */
  limit: number;
}

/**
 * Where each query of a round stands once the round is over. A query is worth its next page only when
 * this page came back full and one of its hits, new to the run (not found in earlier rounds, nor by an
 * earlier call of this round), is the source of a new row. Results are ranked: a page that brought no
 * row rarely has a better page behind it, and follow-up queries that re-rank known pages stop there.
 */
export function cursorsAfterRound(input: RoundCursorsInput): QueryCursor[] {
  const seen = new Set(input.seenBefore);
  return input.answers.map(({ call, hits, more }) => {
    let yielded = false;
    for (const { url } of hits) {
      if (seen.has(url)) continue;
      seen.add(url);
      if (input.yieldingUrls.has(url)) yielded = true;
    }
    const full = more ?? hits.length >= input.limit;
    return { query: call.query, lastPage: call.page, more: full && yielded };
  });
}
