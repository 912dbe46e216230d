import type { FastifyRequest } from 'fastify';
import type { ListMeta } from '../../domain/list-params';

function pageLink(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, 'http://local');
  url.searchParams.set('page', String(page));
  return `${url.pathname}${url.search}`;
}

/** A list answer's `links`, for paging without building URLs: the same request at the first, last, previous and next page. */
export function listLinks(request: FastifyRequest, meta: ListMeta) {
  return {
    first: pageLink(request, 1),
    last: pageLink(request, meta.last_page),
    prev: meta.current_page > 1 ? pageLink(request, meta.current_page - 1) : null,
    next: meta.current_page < meta.last_page ? pageLink(request, meta.current_page + 1) : null,
  };
}
