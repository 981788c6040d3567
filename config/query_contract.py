"""Which query parameters each public page route reads: an explicit contract, enforced before it runs.

Every page model declares `query_parameters = {route name: (parameter, …)}` for each of its routes
(a plain page has one route, "page"; a RoutablePage's routes are its sub-route names). When Wagtail
serves the page, every parameter the route does not declare is removed from the request first:
request.GET, QUERY_STRING, get_full_path() and build_absolute_uri() no longer hold it, so it can
neither change what is rendered nor be printed in it. `manage.py check` fails on a route that is
not declared, so a new route cannot start reading parameters by accident.

The page cache (config/page_cache.py) keys a page on its declared parameters only: `?utm_source=…`
or `?nocache=<random>` is answered from the copy of the clean URL, where it used to render the page
again for every new string (3 req/s instead of 533 on the demo data page).

Removing rather than redirecting to the clean URL: a redirect costs the reader a round trip and drops
campaign parameters (utm_*) before the analytics in the browser reads them; ignoring them keeps the
address as it was linked and costs nothing.

No public route reads a parameter today. Views under the language prefix that are not pages
(Wagtail's `_util/login/?next=` and `_util/authenticate_with_password/`) read their own and are
never stored by the page cache with a query string, since they declare no contract.
"""

from django.core import checks
from django.http import QueryDict
from django.utils.http import urlencode

PAGE_ROUTE = "page"  # the one route of a page without sub-routes
# Set on the request by the page's serve(): the page cache keys the stored response on these names.
DECLARED = "declared_query_parameters"


def route_names(page_class):
    subpage_urls = getattr(page_class, "get_subpage_urls", None)
    if subpage_urls is None:
        return {PAGE_ROUTE}
    names, seen = set(), set()
    for pattern in subpage_urls():
        # A route whose pattern an earlier one already matches (Wagtail's own index_route under a
        # page's "") never runs: it has nothing to declare.
        if str(pattern.pattern) not in seen:
            seen.add(str(pattern.pattern))
            names.add(pattern.name)
    return names


def declared_query(query, names):
    """The part of a parsed query string (QueryDict) a route reads, in one canonical order."""
    return urlencode([(name, value) for name in sorted(names) for value in query.getlist(name)])


def limit_query(request, names):
    kept = QueryDict(declared_query(request.GET, names))
    request.GET = kept
    request.META["QUERY_STRING"] = kept.urlencode()
    setattr(request, DECLARED, tuple(sorted(names)))


class QueryContractMixin:
    query_parameters = {}

    def query_route(self, request, view=None):
        if not hasattr(self, "get_subpage_urls"):
            return PAGE_ROUTE
        match = getattr(request, "routable_resolver_match", None)
        if match is not None:
            return match.url_name
        # wagtail-modeltranslation replaces RoutablePageMixin.route on every page class with a copy
        # that does not set routable_resolver_match: name the route from the view it resolved to.
        names = [pattern.name for pattern, _order in getattr(view, "_routablepage_routes", ())]
        return names[0] if len(set(names)) == 1 else PAGE_ROUTE

    def serve(self, request, *args, **kwargs):
        # A route missing from the contract (the check below reports it) reads nothing.
        view = args[0] if args else kwargs.get("view")
        limit_query(request, self.query_parameters.get(self.query_route(request, view), ()))
        return super().serve(request, *args, **kwargs)

    @classmethod
    def check(cls, **kwargs):
        errors = super().check(**kwargs)
        routes, declared = route_names(cls), set(cls.query_parameters)
        if routes != declared:
            errors.append(checks.Error(
                f"{cls.__name__}.query_parameters must list every route exactly: routes {sorted(routes)}, "
                f"declared {sorted(declared)}",
                hint="Declare each route's query parameters, () for none (config/query_contract.py).",
                obj=cls, id="config.E101",
            ))
        for route, names in cls.query_parameters.items():
            if isinstance(names, str) or not all(isinstance(name, str) for name in names):
                errors.append(checks.Error(
                    f"{cls.__name__}.query_parameters[{route!r}] must be a tuple of parameter names",
                    obj=cls, id="config.E102",
                ))
        return errors
