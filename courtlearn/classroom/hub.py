"""The class server as a JupyterHub service: hub users join by their hub name.

When JupyterHub starts ``courtlearn class serve`` as a managed service, it hands the
service its environment (``JUPYTERHUB_SERVICE_PREFIX``, ``JUPYTERHUB_SERVICE_URL``,
``JUPYTERHUB_API_TOKEN``, ``JUPYTERHUB_API_URL``, ``JUPYTERHUB_CLIENT_ID``,
``JUPYTERHUB_OAUTH_CALLBACK_URL``, ``JUPYTERHUB_OAUTH_ACCESS_SCOPES``, ...). The console
script reads it (:meth:`HubEnv.from_env`) and serves a :class:`HubServer` instead of the
plain :class:`~courtlearn.classroom.server.ClassServer`:

- every route lives under the service's prefix (``/services/courtlearn/``), and the
  server listens where ``JUPYTERHUB_SERVICE_URL`` says (the hub's proxy forwards to it);
- the learner page, its WebSocket and the teacher's pages need the hub's login (OAuth
  with the hub, as ``HubOAuthenticated`` does on tornado; the WebSocket upgrade reads the
  same cookie). A page without a login is sent to the hub's login; a socket whose login
  lapsed is closed with code 4401 and the page reloads (to log in again);
- a hub user joins with no class code and no name: the room knows them by their hub
  name (``Learner.hub_user``), so they get their seat back from any browser or device,
  and a seat token is neither sent nor taken;
- a learner's notebook on the hub joins and sends its results (``api/join``,
  ``api/results``) with the hub's API token of their server (``JUPYTERHUB_API_TOKEN`` in
  the kernel, sent as ``Authorization: token ...``; a login cookie is not enough): the
  hub says whose it is. The token needs the service's access scope
  (``c.Spawner.server_token_scopes``, in the README);
- the teacher is the hub user holding the scope ``custom:courtlearn:teach``
  (:data:`TEACH_SCOPE`): :meth:`HubServer.teacher_allowed` answers for the teacher's page
  instead of the teacher's token. The hub grants it through a role, and the service's
  ``oauth_client_allowed_scopes`` lets the hub put it in the service's OAuth tokens.

The lines of ``jupyterhub_config.py`` are in the README ("On a JupyterHub"). Importing
this module imports jupyterhub (``pip install jupyterhub``; the server needs it only
when run as a hub service).

>>> env = HubEnv.from_env({"JUPYTERHUB_SERVICE_PREFIX": "/services/courtlearn/",
...     "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:10101", "JUPYTERHUB_API_TOKEN": "secret",
...     "JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api",
...     "JUPYTERHUB_CLIENT_ID": "service-courtlearn", "JUPYTERHUB_SERVICE_NAME": "courtlearn"})
>>> env.prefix, env.host, env.port, env.callback
('/services/courtlearn/', '127.0.0.1', 10101, '/services/courtlearn/oauth_callback')
>>> sorted(env.access_scopes)
['access:services!service=courtlearn']
>>> HubEnv.from_env({"JUPYTERHUB_API_TOKEN": "x"}) is None   # not a service: the plain server
True
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
from dataclasses import dataclass, field
from urllib.parse import urlparse

import tornado.web
import tornado.websocket
from jupyterhub.services.auth import (HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated,
                                      UserNotAllowed, check_scopes)

from courtlearn.language import tr, using

from .room import NAME_MAX, Learner, Refusal, Room, clean_name, looks_like_a_label
from .server import ApiHandler, ClassServer, HealthHandler, LearnerSocket, StaticHandler

__all__ = ["HubEnv", "HubServer", "TEACH_SCOPE", "hub_hello", "is_teacher"]

log = logging.getLogger("courtlearn.classroom")

TEACH_SCOPE = "custom:courtlearn:teach"
LOGIN_AGAIN = 4401          # WebSocket close code: the hub login lapsed, the page reloads

# what a managed service always gets from the hub. JUPYTERHUB_SERVICE_NAME says that this
# process is a service (a user's own Jupyter server under the hub has the others too)
REQUIRED = ("JUPYTERHUB_SERVICE_PREFIX", "JUPYTERHUB_API_TOKEN", "JUPYTERHUB_API_URL",
            "JUPYTERHUB_CLIENT_ID", "JUPYTERHUB_SERVICE_URL")


@dataclass
class HubEnv:
    """What the hub told the service: where it lives and how it checks logins."""

    prefix: str                       # "/services/courtlearn/": every route under it
    host: str                         # where to listen (from JUPYTERHUB_SERVICE_URL)
    port: int
    api_url: str                      # the hub's API, e.g. http://127.0.0.1:8081/hub/api
    api_token: str = field(repr=False)
    client_id: str                    # the service's OAuth client
    callback: str                     # the OAuth callback (as the hub registered it)
    access_scopes: set                # a hub user needs one of them to use the service
    hub_prefix: str = "/hub/"         # the hub's own pages (its login, its OAuth)
    hub_host: str = ""                # "" : the hub is on the same host as the service
    public_url: str = ""              # the service's public address, when the hub knows it

    @classmethod
    def from_env(cls, environ=None) -> "HubEnv | None":
        """The hub's environment of a service; None when this is not one (no
        JUPYTERHUB_SERVICE_NAME); ValueError naming what is missing when only some are."""
        env = os.environ if environ is None else environ
        if not env.get("JUPYTERHUB_SERVICE_NAME"):
            return None
        missing = [k for k in REQUIRED if not env.get(k)]
        if missing:
            raise ValueError(f"a JupyterHub service needs {', '.join(missing)} in its "
                             f"environment (the hub sets them for a managed service; set them "
                             f"for an external one); without JUPYTERHUB_SERVICE_NAME it runs "
                             f"as the plain class server")
        prefix = "/" + env["JUPYTERHUB_SERVICE_PREFIX"].strip("/") + "/"
        url = urlparse(env["JUPYTERHUB_SERVICE_URL"])
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError("JUPYTERHUB_SERVICE_URL is the service's own address, like "
                             f"http://127.0.0.1:10101; got {env['JUPYTERHUB_SERVICE_URL'][:60]!r}")
        port = url.port or (443 if url.scheme == "https" else 80)
        scopes = env.get("JUPYTERHUB_OAUTH_ACCESS_SCOPES") or env.get("JUPYTERHUB_OAUTH_SCOPES")
        if scopes:
            try:
                access = set(json.loads(scopes))
            except (ValueError, TypeError):
                raise ValueError("JUPYTERHUB_OAUTH_ACCESS_SCOPES is a JSON list of scopes; "
                                 f"got {scopes[:60]!r}") from None
        else:
            access = {f"access:services!service={env['JUPYTERHUB_SERVICE_NAME']}"}
        callback = env.get("JUPYTERHUB_OAUTH_CALLBACK_URL") or prefix + "oauth_callback"
        base = env.get("JUPYTERHUB_BASE_URL") or "/"
        return cls(prefix=prefix, host=url.hostname, port=port,
                   api_url=env["JUPYTERHUB_API_URL"].rstrip("/"),
                   api_token=env["JUPYTERHUB_API_TOKEN"], client_id=env["JUPYTERHUB_CLIENT_ID"],
                   callback=callback,
                   access_scopes=access, hub_prefix="/" + (base.strip("/") + "/hub/").lstrip("/"),
                   hub_host=env.get("JUPYTERHUB_HOST", ""),
                   public_url=env.get("JUPYTERHUB_PUBLIC_URL", ""))

    def auth(self) -> HubOAuth:
        """The hub's OAuth client for this service (logins, cookies, the hub's user model)."""
        return HubOAuth(api_token=self.api_token, api_url=self.api_url, base_url=self.prefix,
                        oauth_client_id=self.client_id, oauth_redirect_uri=self.callback,
                        access_scopes=self.access_scopes, hub_prefix=self.hub_prefix,
                        hub_host=self.hub_host)

    @property
    def cookie_secret(self) -> bytes:
        """The key of the service's login cookie, derived from the service's API token: the
        same after a restart of the service (its pages stay logged in), unknown to anyone
        who does not hold the token."""
        return hmac.new(self.api_token.encode(), b"courtlearn class: hub login cookie",
                        hashlib.sha256).digest()


def is_teacher(user: dict | None) -> bool:
    """Whether a hub user model (the hub's answer for a login) holds the teaching scope.

    >>> is_teacher({"name": "t", "scopes": ["access:services!service=courtlearn", TEACH_SCOPE]})
    True
    >>> is_teacher({"name": "l", "scopes": ["access:services!service=courtlearn"]}), is_teacher(None)
    (False, False)
    """
    if not isinstance(user, dict) or user.get("kind", "user") != "user":
        return False
    return bool(check_scopes({TEACH_SCOPE}, set(user.get("scopes") or ())))


# ----------------------------------------------------------------------------- the room
def learner_of(room: Room, hub_user: str) -> Learner | None:
    """The class's learner who is this hub user (not removed), if any."""
    for lr in room.learners.values():
        if lr.hub_user == hub_user and not lr.removed:
            return lr
    return None


def removed_hub_user(room: Room, hub_user: str) -> bool:
    """Whether the teacher removed this hub user from the class (and has not let them
    back: ``room.let_back``): they do not come back as a new learner."""
    return any(lr.hub_user == hub_user and lr.removed for lr in room.learners.values()) \
        and learner_of(room, hub_user) is None


def hub_name(hub_user: str) -> str:
    """The name a hub user is shown by: their hub name, with "@" before it when it would
    pass for one of the page's own words (a hub user called "bot")."""
    name = hub_user[:NAME_MAX]
    if looks_like_a_label(name):
        name = "@" + name[:NAME_MAX - 1]
    return clean_name(name)


def hub_identity_name(user) -> str:
    """The hub name of a hub identity (the hub's model of a login), refusing one that is
    not a user (a service's token gets no seat)."""
    if isinstance(user, dict):
        name = user.get("name")
        if user.get("kind", "user") != "user" or not isinstance(name, str) or not name:
            raise Refusal(tr("Only the hub's users join the class (not its services)."))
        return name
    return user


def join_hub_user(room: Room, hub_user: str) -> Learner:
    """The learner who is this hub user: registered at their first visit; Refusal when the
    teacher removed them."""
    lr = learner_of(room, hub_user)
    if lr is None:
        if removed_hub_user(room, hub_user):
            raise Refusal(tr("The teacher removed you from the class."), removed=True)
        lr, _ = room.register(hub_name(hub_user), hub_user=hub_user)
    return lr


def hub_hello(room: Room, conn, hub_user) -> Learner:
    """A hub user's page says hello: the learner they are (registered at their first
    visit, named by their hub name) takes this socket, back in their seat if they have
    one. No class code, no seat token: the hub's login says who this is. ``hub_user``:
    the hub's user model of the login (or its name); a service is refused, and so is a
    user the teacher removed (until ``room.let_back``)."""
    with using(room.language):
        lr = join_hub_user(room, hub_identity_name(hub_user))
        room._attach(conn, lr)
        room._send(conn, {"type": "welcome", "name": lr.name, "learner": lr.id, "hub": True})
        if lr.table is None:
            room._lobby_conns.append(conn)
            room._send(conn, room._lobby_json())
        else:
            room._seated(conn, lr)
            room._arrived(lr.table, lr.seat, conn)
    room._done()
    return lr


# ----------------------------------------------------------------------------- handlers
class HubLogin(HubOAuthenticated):
    """Mixin: before any method, the request's hub user (``self.hub_user``, the hub's user
    model) from the service's login cookie, checked against the service's access scopes.
    A page without a login goes to the hub's login (and comes back); a WebSocket without
    one is opened only to be closed with :data:`LOGIN_AGAIN` (the page then reloads)."""

    hub_user: dict | None = None

    def initialize(self, server, **kwargs):
        super().initialize(server=server, **kwargs)
        self.hub_auth = server.hub_auth

    async def prepare(self):
        user = await self.hub_auth.get_user(self, sync=False)
        if user is not None:
            try:
                user = self.check_hub_user(user)
            except UserNotAllowed:
                raise tornado.web.HTTPError(403, "this hub user may not use the class service")
        self.hub_user = self._hub_auth_user_cache = user
        if user is None and not self._upgrade():
            if self.request.method not in ("GET", "HEAD"):
                raise tornado.web.HTTPError(403)
            self.redirect(self.get_login_url())

    def get_current_user(self):
        return self.hub_user

    def _upgrade(self) -> bool:
        return isinstance(self, tornado.websocket.WebSocketHandler)


class HubLearnerSocket(HubLogin, LearnerSocket):
    """A hub user's learner socket: hello by hub identity only (codes and tokens unused)."""

    def open(self):
        if self.hub_user is None:
            self.close(LOGIN_AGAIN, "log in to the hub again")
            return
        super().open()

    def on_message(self, message):
        if self.hub_user is None:
            return None
        return super().on_message(message)       # (None, or the pause of a flood)

    async def _hello(self, msg) -> None:
        """As the plain server's: a page coming back (its hub user is a learner already)
        says hello again at most REJOIN_RATE a second, and past the connection cap only a
        seated learner's page comes in."""
        with using(self.room.language):
            if self.learner is not None:
                raise Refusal(tr("This page has already joined."))
            user = self.hub_user
            name = user.get("name") if isinstance(user, dict) else user
            lr = learner_of(self.room, name) if isinstance(name, str) else None
            if lr is not None and not self.server.rejoin_ok(lr):
                raise Refusal(tr("This page reconnected too often: it tries again in a "
                                 "moment."), full=True)
            if self.probation and (lr is None or lr.table is None):
                raise self.server.full_refusal()
        hub_hello(self.room, self, self.hub_user)


class HubApiLogin(HubLogin):
    """Mixin for the notebooks' API: the hub user of the request's token (a request without
    one is refused with 403, never sent to a login page)."""

    async def prepare(self):
        user = await self.hub_auth.get_user(self, sync=False)
        if user is not None:
            try:
                user = self.check_hub_user(user)
            except UserNotAllowed:
                user = None
        self.hub_user = self._hub_auth_user_cache = user
        if user is None:
            with using(self.room.language):
                self.reply(403, {"reason": tr("The hub does not know this notebook's token "
                                              "for the class.")})


def hub_identity(handler) -> str | None:
    """The hub user name of an API request authenticated by a hub token (the kernel's
    JUPYTERHUB_API_TOKEN); None for a login cookie only, a service, or nobody."""
    user = getattr(handler, "hub_user", None)
    if not isinstance(user, dict) or user.get("kind", "user") != "user" \
            or not getattr(handler, "_token_authenticated", False):
        return None
    name = user.get("name")
    return name if isinstance(name, str) and name else None


class HubCallback(HubOAuthCallbackHandler):
    """The end of the hub's OAuth dance: sets the login cookie, back to the page."""

    def initialize(self, server):
        self.hub_auth = server.hub_auth


def _with_login(cls):
    """``cls`` (a page or socket handler of the server) behind the hub's login."""
    return type(f"Hub{cls.__name__}", (HubLogin, cls), {"__module__": __name__})


# ----------------------------------------------------------------------------- the server
class HubServer(ClassServer):
    """The class server as the hub service ``hub`` describes (a :class:`HubEnv`): routes
    under its prefix, hub logins for the pages and sockets, hub users as learners, the
    teaching scope for the teacher. Built like :class:`ClassServer` (room, port, host)."""

    def __init__(self, room: Room, port: int | None = None, host: str | None = None,
                 origins=(), hub: HubEnv | None = None, **kw):
        hub = hub if hub is not None else HubEnv.from_env()
        if hub is None:
            raise ValueError("HubServer runs as a JupyterHub service: the hub's environment "
                             "(JUPYTERHUB_SERVICE_PREFIX, JUPYTERHUB_API_TOKEN, ...) is not "
                             "set; use ClassServer (courtlearn.classroom.open) without a hub")
        self.hub = hub
        self.prefix = hub.prefix
        self.hub_auth = hub.auth()
        if hub.public_url:
            p = urlparse(hub.public_url)
            origins = (*origins, f"{p.scheme}://{p.netloc}")
        super().__init__(room, port=hub.port if port is None else port,
                         host=hub.host if host is None else host, origins=origins, **kw)

    def handlers(self, args: dict) -> list:
        out = [(re.escape(self.prefix.rstrip("/")), tornado.web.RedirectHandler,
                {"url": self.prefix}),
               (re.escape(urlparse(self.hub.callback).path), HubCallback, args)]
        for path, cls, kw in super().handlers(args):
            if cls is LearnerSocket:
                cls = HubLearnerSocket
            elif issubclass(cls, ApiHandler):                 # notebooks: the hub's token
                cls = type(f"Hub{cls.__name__}", (HubApiLogin, cls), {"__module__": __name__})
            elif cls not in (StaticHandler, HealthHandler):   # public files and counts only
                cls = _with_login(cls)
            out.append((path, cls, kw))
        return out

    def app_settings(self) -> dict:
        return {**super().app_settings(), "cookie_secret": self.hub.cookie_secret}

    def page_boot(self) -> dict:
        return {"hub": True}

    def api_learner(self, handler):
        """The learner who is the request's hub user (by their server's API token)."""
        name = hub_identity(handler)
        return None if name is None else learner_of(self.room, name)

    async def api_join(self, handler, msg) -> tuple[int, dict]:
        """A hub user's notebook joins by their hub name (no code, no name, no seat
        token): the same learner as their learner page."""
        name = hub_identity(handler)
        if name is None:
            return 401, {"reason": tr("On the hub, a notebook joins with its hub API token "
                                      "(JUPYTERHUB_API_TOKEN).")}
        try:
            lr = join_hub_user(self.room, name)
        except Refusal as err:
            return 403, {"reason": str(err), **err.extra}
        self.room.flush()
        return 200, {"learner": lr.id, "name": lr.name, "hub": True}

    def teacher_allowed(self, handler) -> bool:
        """The teacher is a hub user holding :data:`TEACH_SCOPE` (no teacher's token)."""
        return is_teacher(getattr(handler, "hub_user", None))

    def addresses(self) -> list[str]:
        """The service's public address when the hub knows it, else its path on the hub."""
        return [self.hub.public_url or self.prefix]

    def join_url(self, address: str | None = None) -> str:
        return address or self.addresses()[0]
