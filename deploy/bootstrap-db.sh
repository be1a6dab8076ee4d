#!/usr/bin/env bash
# deploy/bootstrap-db.sh — give Hearth a PostgreSQL database, with pgvector, and print its URL.
#
# Usage:
#   deploy/bootstrap-db.sh          # prints the URL of the `hearth` database
#   deploy/bootstrap-db.sh --test   # prints the URL of the `hearth_test` database
#   DATABASE_URL=$(deploy/bootstrap-db.sh)
#
# Contract: exactly ONE line on stdout (a postgres:// URL); every log line goes to stderr.
# Idempotent: once everything exists a run only checks, in well under two seconds.
# With --test the URL's role can CREATE DATABASE (tests make scratch databases from there).
#
# Where the server comes from, first match wins:
#   1. $DATABASE_URL is set: that server is used as is, nothing is installed; the database is
#      created when the server has none of that name yet, and we check that the extensions
#      Hearth needs are available there. With --test,
#      $HEARTH_TEST_DATABASE_URL if set, else `<dbname>_test` on the same server (created).
#   2. A private cluster already exists in <repo>/.pgdata: it is (re)started and used, so that
#      the URL stays the same from one run to the next (see "private cluster" below).
#   3. A server answers on localhost:5432 and lets the current OS user or `postgres` in
#      without a password: the databases are created there.
#   4. Otherwise PostgreSQL is installed from the OS packages (Debian/Ubuntu only) and a
#      private cluster is created in <repo>/.pgdata on a free port (55432 or the next free).
# In cases 2-4 the server is local, so pgvector is installed into it if missing: from the OS
# package postgresql-N-pgvector when the apt sources have one, else built from Debian's own
# pgvector source package of the next Debian release (bookworm has no pgvector package).
#
# Environment knobs (all optional):
#   DATABASE_URL, HEARTH_TEST_DATABASE_URL   see 1. above
#   HEARTH_BOOTSTRAP_FORCE_PRIVATE=1         skip 3. (pretend nothing answers on :5432)
#   HEARTH_PRIVATE_PGDATA=<dir>              where the private cluster lives (default <repo>/.pgdata)
#   HEARTH_PRIVATE_PGPORT=<port>             first port tried for a new private cluster (55432)
#
# Private cluster: owned by the OS user `postgres` when this script runs as root (the server
# refuses to run as root), by the current user otherwise; listens on localhost only, TCP only
# (no unix socket, so no /var/run permissions or socket path length issues); trust auth for
# local connections, superuser `postgres`. It is NOT started at boot: re-run this script.
# To stop it (N = PostgreSQL major version, e.g. 15; drop `runuser -u postgres --` if not root):
#   runuser -u postgres -- /usr/lib/postgresql/N/bin/pg_ctl -D .pgdata/data stop
# To throw it away: stop it, then `rm -rf .pgdata`.
#
# On macOS nothing is installed: a running server is used (cases 1 and 3), otherwise the
# script explains how to get one (Homebrew) and exits 1.
set -euo pipefail

readonly REQUIRED_EXTENSIONS=(vector pg_trgm cube earthdistance)
readonly MAIN_DB=hearth

SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
REPO_ROOT=$(cd -- "$SCRIPT_DIR/.." && pwd -P)
# The private cluster is found from the script's location, not the cwd, so `make` from a
# subfolder and a run from the repo root agree.
PRIVATE_ROOT=${HEARTH_PRIVATE_PGDATA:-$REPO_ROOT/.pgdata}
PRIVATE_FIRST_PORT=${HEARTH_PRIVATE_PGPORT:-55432}
readonly SCRIPT_DIR REPO_ROOT PRIVATE_ROOT PRIVATE_FIRST_PORT

WANT_TEST=0
APT_UPDATED=0
TMP_DIRS=()

log() { printf 'bootstrap-db: %s\n' "$*" >&2; }
die() {
	printf 'bootstrap-db: error: %s\n' "$*" >&2
	exit 1
}

cleanup() {
	local d
	for d in "${TMP_DIRS[@]}"; do
		# Temp dirs may hold root-owned files (apt downloads) when we used sudo.
		rm -rf -- "$d" 2>/dev/null || { [[ $EUID -ne 0 ]] && command -v sudo >/dev/null && sudo rm -rf -- "$d"; } || true
	done
}
trap cleanup EXIT

usage() {
	sed -n '2,/^set -euo pipefail/{/^set/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
}

parse_args() {
	while (($#)); do
		case $1 in
		--test) WANT_TEST=1 ;;
		-h | --help)
			usage
			exit 0
			;;
		*)
			usage
			die "unknown argument: $1"
			;;
		esac
		shift
	done
}

# ---------------------------------------------------------------------------------------------
# Small helpers

is_darwin() { [[ $(uname -s) == Darwin ]]; }
have() { command -v "$1" >/dev/null 2>&1; }

# Run a command as root: directly, through sudo, or not at all (then say what to run).
as_root() {
	if [[ $EUID -eq 0 ]]; then
		"$@"
	elif have sudo; then
		sudo "$@"
	else
		die "root is needed and sudo is not available; run as root:
    $*
then run this script again (or run the whole script as root)."
	fi
}

# Bail out early, with the full list of commands, when we will need root and cannot get it,
# instead of failing halfway through a multi-step install.
require_root_or_explain() {
	local what=$1
	shift
	if [[ $EUID -ne 0 ]] && ! have sudo; then
		printf 'bootstrap-db: error: %s needs root and sudo is not available. Run as root:\n' "$what" >&2
		printf '    %s\n' "$@" >&2
		printf 'then run this script again (or run the whole script as root).\n' >&2
		exit 1
	fi
}

apt_update_once() {
	((APT_UPDATED)) && return 0
	log "apt-get update"
	as_root apt-get update -qq >&2
	APT_UPDATED=1
}

# Install the Debian packages that are not installed yet (naming an installed package to
# apt-get would upgrade it: not our business); `apt-get update` only when the lists do not
# know a package (fresh containers have no lists at all).
apt_install() {
	local pkg missing=0 todo=()
	for pkg in "$@"; do
		[[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) == 'install ok installed' ]] || todo+=("$pkg")
	done
	((${#todo[@]})) || return 0
	for pkg in "${todo[@]}"; do
		if ! apt-cache show --no-all-versions "$pkg" >/dev/null 2>&1; then missing=1; fi
	done
	require_root_or_explain "installing packages" "apt-get update" "apt-get install -y --no-install-recommends ${todo[*]}"
	if ((missing)); then apt_update_once; fi
	log "apt-get install ${todo[*]}"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${todo[@]}" >&2
}

# psql that never prompts (-w), ignores ~/.psqlrc (-X), stops at the first error and prints
# bare values. SQL comes on stdin so that psql variables (-v name=value, :'name') quote
# identifiers and literals for us.
psql_url() {
	local url=$1
	shift
	psql -X -w -q -At -v ON_ERROR_STOP=1 -d "$url" "$@"
}

sql_value() { # url sql [-v var=value ...]
	local url=$1 sql=$2
	shift 2
	printf '%s\n' "$sql" | psql_url "$url" "$@" -f -
}

ensure_client_tools() {
	have psql && have pg_isready && return 0
	if is_darwin; then
		die "psql/pg_isready not found. Install the client: brew install libpq && brew link --force libpq"
	elif have apt-get; then
		apt_install postgresql-client
	else
		die "psql/pg_isready not found; install the PostgreSQL client tools with your package manager."
	fi
}

# --- URL handling -----------------------------------------------------------------------------
# A postgres URL is scheme://[userinfo@]host[:port][/dbname][?query]. We only need to read and
# replace the database name, which is everything between the first '/' after the authority and
# the '?'.

url_dbname() {
	local rest=${1#*://}
	rest=${rest%%\?*}
	[[ $rest == */* ]] || return 0
	printf '%s' "${rest#*/}"
}

url_with_dbname() { # url newdb
	local url=$1 db=$2 scheme rest query='' authority
	scheme=${url%%://*}
	rest=${url#*://}
	if [[ $rest == *\?* ]]; then
		query="?${rest#*\?}"
		rest=${rest%%\?*}
	fi
	authority=${rest%%/*}
	printf '%s://%s/%s%s' "$scheme" "$authority" "$db" "$query"
}

check_url() {
	[[ $1 =~ ^postgres(ql)?:// ]] || die "$2 must be a postgres:// URL (got something else)"
}

# Database names we create: keep them boring so they need no URL encoding.
check_dbname() {
	[[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "database name '$1' is not a plain identifier; set HEARTH_TEST_DATABASE_URL explicitly"
}

# --- databases and extensions -----------------------------------------------------------------

db_exists() { # admin_url name
	[[ $(sql_value "$1" "select 1 from pg_database where datname = :'db'" -v "db=$2") == 1 ]]
}

# Create a database if missing. CREATE DATABASE has no IF NOT EXISTS, and two runs at once
# (make -j) could race, so a failed CREATE is fine if the database exists afterwards.
ensure_database() { # admin_url name
	local admin_url=$1 name=$2 err
	check_dbname "$name"
	db_exists "$admin_url" "$name" && return 0
	log "creating database $name"
	if ! err=$(sql_value "$admin_url" 'create database :"db"' -v "db=$name" 2>&1); then
		db_exists "$admin_url" "$name" && return 0
		die "could not create database $name: $err
The role needs CREATEDB (ALTER ROLE <role> CREATEDB) — or create the database yourself."
	fi
}

missing_extensions() { # url -> names of REQUIRED_EXTENSIONS the server cannot install, one a line
	local available ext
	available=$(sql_value "$1" 'select name from pg_available_extensions')
	for ext in "${REQUIRED_EXTENSIONS[@]}"; do
		grep -qx -- "$ext" <<<"$available" || printf '%s\n' "$ext"
	done
}

extension_help() { # missing names, one a line
	local ext
	while IFS= read -r ext; do
		case $ext in
		vector) printf '  - vector: pgvector, https://github.com/pgvector/pgvector — Debian/Ubuntu: apt-get install postgresql-<N>-pgvector (Debian 13+/PGDG apt repo), macOS: brew install pgvector, managed services (RDS, Cloud SQL, Azure, Supabase, Neon): enable the "vector" extension; or let this script manage a local server (unset DATABASE_URL)\n' ;;
		*) printf '  - %s: part of PostgreSQL contrib — Debian/Ubuntu: apt-get install postgresql-contrib; other distributions: postgresql<N>-contrib\n' "$ext" ;;
		esac
	done
}

require_extensions() { # url where
	local missing
	missing=$(missing_extensions "$1")
	[[ -z $missing ]] && return 0
	die "the server of $2 cannot install these extensions Hearth needs: $(tr '\n' ' ' <<<"$missing")
$(extension_help <<<"$missing")"
}

# Role must be able to create the scratch databases the tests make.
require_createdb() { # url
	[[ $(sql_value "$1" 'select rolcreatedb or rolsuper from pg_roles where rolname = current_user') == t ]] ||
		die "the role of the test database URL cannot CREATE DATABASE, which the tests need: ALTER ROLE <role> CREATEDB (as a superuser)"
}

# ---------------------------------------------------------------------------------------------
# 1. DATABASE_URL given: use it, check only.

use_given_url() {
	local url=$DATABASE_URL main_db
	check_url "$url" DATABASE_URL
	ensure_client_tools
	if ! sql_value "$url" 'select 1' >/dev/null 2>&1; then
		# The server may be there without the database yet: create it from the
		# server's maintenance database, as a fresh install expects.
		local admin
		main_db=$(url_dbname "$url")
		admin=$(url_with_dbname "$url" postgres)
		if [[ -n $main_db ]] && sql_value "$admin" 'select 1' >/dev/null 2>&1 && ! db_exists "$admin" "$main_db"; then
			ensure_database "$admin" "$main_db"
		fi
		sql_value "$url" 'select 1' >/dev/null || die "cannot connect to DATABASE_URL (see psql's message above)"
	fi
	if ((WANT_TEST)); then
		if [[ -n ${HEARTH_TEST_DATABASE_URL:-} ]]; then
			url=$HEARTH_TEST_DATABASE_URL
			check_url "$url" HEARTH_TEST_DATABASE_URL
			sql_value "$url" 'select 1' >/dev/null || die "cannot connect to HEARTH_TEST_DATABASE_URL (see psql's message above)"
		else
			main_db=$(url_dbname "$url")
			[[ -n $main_db ]] || die "DATABASE_URL names no database, so the test database cannot be derived; set HEARTH_TEST_DATABASE_URL"
			ensure_database "$url" "${main_db}_test"
			url=$(url_with_dbname "$url" "${main_db}_test")
		fi
		require_createdb "$url"
	fi
	require_extensions "$url" "the database URL"
	printf '%s\n' "$url"
}

# ---------------------------------------------------------------------------------------------
# Local servers (cases 2-4): databases, pgvector, URL.

# Everything a local server needs once it runs; prints the URL.
finish_local() { # port role
	local port=$1 role=$2 admin_url db
	admin_url="postgres://$role@localhost:$port/postgres?sslmode=disable"
	ensure_database "$admin_url" "$MAIN_DB"
	db=$MAIN_DB
	if ((WANT_TEST)); then
		db=${MAIN_DB}_test
		ensure_database "$admin_url" "$db"
	fi
	ensure_pgvector "$admin_url"
	require_extensions "$admin_url" "the local server on port $port"
	printf '%s\n' "postgres://$role@localhost:$port/$db?sslmode=disable"
}

# 3. A server on localhost:5432. Which role lets us in without a password and may create
# databases? Debian: `postgres` (trust for local TCP here); Homebrew: the OS user. `postgres`
# goes first so that every developer on a Debian machine gets the same URL.
find_local_role() { # port
	local role
	for role in ${PGUSER:+"$PGUSER"} postgres "$(id -un)"; do
		if [[ $(sql_value "postgres://$role@localhost:$1/postgres?sslmode=disable" \
			'select rolcreatedb or rolsuper from pg_roles where rolname = current_user' 2>/dev/null) == t ]]; then
			printf '%s' "$role"
			return 0
		fi
	done
	return 1
}

use_server_on_5432() {
	local role
	role=$(find_local_role 5432) ||
		die "a server answers on localhost:5432 but neither '$(id -un)' nor 'postgres' can log in without a password and create databases.
Either allow trust auth for local TCP connections, or set DATABASE_URL (with password) and run again."
	log "using the server on localhost:5432 as role $role"
	finish_local 5432 "$role"
}

# --- pgvector ---------------------------------------------------------------------------------

vector_available() { # url
	[[ $(sql_value "$1" "select count(*) from pg_available_extensions where name = 'vector'") == 1 ]]
}

# Make `vector` installable on the local server reached by admin_url.
ensure_pgvector() { # admin_url
	local admin_url=$1 major pg_config
	vector_available "$admin_url" && return 0
	if is_darwin; then
		die "pgvector is not installed in the local server. Install it with Homebrew: brew install pgvector (matching your postgresql@N), then run again."
	fi
	have apt-get || die "pgvector is missing on the local server and this is not a Debian/Ubuntu system: install pgvector for your PostgreSQL (https://github.com/pgvector/pgvector#installation) and run again."
	# Build against the server that actually runs, not whatever pg_config is first in PATH.
	major=$(($(sql_value "$admin_url" 'show server_version_num') / 10000))
	pg_config=/usr/lib/postgresql/$major/bin/pg_config
	log "pgvector missing on PostgreSQL $major; installing it"
	if apt-cache show --no-all-versions "postgresql-$major-pgvector" >/dev/null 2>&1; then
		apt_install "postgresql-$major-pgvector"
	else
		build_pgvector_from_debian_source "$major" "$pg_config"
	fi
	# The files land in the Debian layout for that major; if the server still does not see
	# them it is another installation (a container, a source build) that we cannot reach.
	vector_available "$admin_url" ||
		die "installed pgvector for /usr/lib/postgresql/$major but the server still does not list it: is it a different installation (e.g. a container)? Install pgvector into that server, or set DATABASE_URL."
	log "pgvector is installed"
}

# The URI of the main Debian archive from this machine's apt sources (deb822 first, then the
# one-line format). Read, never hard-coded: machines use different mirrors or snapshots.
# Prints "URI<TAB>signed-by-keyring-or-empty".
debian_archive_uri() { # codename
	local codename=$1 f
	shopt -s nullglob
	for f in /etc/apt/sources.list.d/*.sources; do
		# Stanzas are separated by blank lines; keep the first whose Suites has the plain codename.
		awk -v cn="$codename" '
			BEGIN { RS = ""; FS = "\n" }
			{
				uri = ""; suites = ""; key = ""; types = ""; enabled = "yes"
				for (i = 1; i <= NF; i++) {
					line = $i
					if (line ~ /^[ \t]*#/) continue
					split(line, kv, ":")
					k = tolower(kv[1]); v = substr(line, length(kv[1]) + 2)
					gsub(/^[ \t]+|[ \t]+$/, "", v)
					if (k == "uris") { split(v, u, /[ \t]+/); uri = u[1] }
					else if (k == "suites") suites = " " v " "
					else if (k == "signed-by") key = v
					else if (k == "types") types = v
					else if (k == "enabled") enabled = tolower(v)
				}
				if (key !~ /^\//) key = ""  # inline keys and fingerprints: use the default keyring
				if (enabled != "no" && types ~ /deb/ && index(suites, " " cn " ") && uri != "") {
					print uri "\t" key; exit
				}
			}' "$f" | head -n1 | grep . && return 0
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -r $f ]] || continue
		# deb [options] URI suite components...
		awk -v cn="$codename" '
			$1 == "deb" {
				i = 2
				if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
				if ($(i + 1) == cn) { print $i "\t"; exit }
			}' "$f" | head -n1 | grep . && return 0
	done
	return 1
}

# Debian release that follows ours; pgvector entered Debian with trixie (13).
next_debian_codename() {
	case $1 in
	bullseye) echo bookworm ;;
	bookworm) echo trixie ;;
	trixie) echo forky ;;
	*) return 1 ;;
	esac
}

# Download and unpack Debian source package `pkg` of `suite` into $tmp/src, using a private
# apt state (lists and caches in $tmp) that knows only one deb-src line: the machine's own
# package lists and caches are not touched, and nothing is left behind. Needs no root.
fetch_debian_source() { # pkg suite uri keyring tmp
	local pkg=$1 suite=$2 uri=$3 key=$4 tmp=$5
	printf 'deb-src [signed-by=%s] %s %s main\n' "$key" "$uri" "$suite" >"$tmp/sources.list"
	local -a apt_opts=(
		-o "Dir::Etc::sourcelist=$tmp/sources.list" -o Dir::Etc::sourceparts=-
		-o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache"
		-o APT::Get::List-Cleanup=0
	)
	if [[ $EUID -ne 0 ]]; then
		# Without root apt cannot switch to its _apt sandbox user, nor lock the system dirs.
		apt_opts+=(-o "APT::Sandbox::User=$(id -un)" -o Debug::NoLocking=1)
	fi
	mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/src"
	# As root apt drops to the _apt user to download; let it write into our temp dirs.
	chmod 0755 "$tmp"
	chmod 0777 "$tmp/src" "$tmp/lists/partial" "$tmp/cache/archives/partial"
	log "fetching the $pkg source package of Debian $suite from $uri"
	apt-get -qq "${apt_opts[@]}" update >&2
	(cd "$tmp/src" && apt-get -qq "${apt_opts[@]}" source "$pkg" >&2)
}

build_pgvector_from_debian_source() { # major pg_config
	local major=$1 pg_config=$2 codename next line uri key tmp srcdir
	# shellcheck disable=SC1091 # os-release is read at run time
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	next=$(next_debian_codename "$codename") ||
		die "no postgresql-$major-pgvector package in the apt sources and no recipe for '$codename': install pgvector for PostgreSQL $major (https://github.com/pgvector/pgvector#installation) and run again."
	line=$(debian_archive_uri "$codename") ||
		die "could not find the Debian archive for '$codename' in /etc/apt/sources.list{,.d}; install pgvector by hand (https://github.com/pgvector/pgvector#installation)."
	uri=${line%%$'\t'*}
	key=${line#*$'\t'}
	[[ -n $key ]] || key=/usr/share/keyrings/debian-archive-keyring.gpg

	tmp=$(mktemp -d "${TMPDIR:-/tmp}/hearth-pgvector.XXXXXX")
	TMP_DIRS+=("$tmp")

	require_root_or_explain "building pgvector" \
		"apt-get install -y dpkg-dev build-essential postgresql-server-dev-$major" \
		"mkdir -p /tmp/pgvector/lists/partial && cd /tmp/pgvector" \
		"echo 'deb-src [signed-by=$key] $uri $next main' > sources.list" \
		"apt-get -o Dir::Etc::sourcelist=\$PWD/sources.list -o Dir::Etc::sourceparts=- -o Dir::State::Lists=\$PWD/lists update" \
		"apt-get -o Dir::Etc::sourcelist=\$PWD/sources.list -o Dir::Etc::sourceparts=- -o Dir::State::Lists=\$PWD/lists source pgvector" \
		"make -C pgvector-*/ PG_CONFIG=$pg_config && make -C pgvector-*/ PG_CONFIG=$pg_config install" \
		"cd / && rm -rf /tmp/pgvector"

	# dpkg-source (dpkg-dev) unpacks the source package; server-dev-N gives pg_config + headers.
	apt_install dpkg-dev build-essential "postgresql-server-dev-$major"

	fetch_debian_source pgvector "$next" "$uri" "$key" "$tmp"
	srcdir=$(find "$tmp/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n1)
	[[ -n $srcdir ]] || die "apt-get source pgvector did not unpack a source tree"
	log "building $(basename "$srcdir") against PostgreSQL $major"
	make -s -C "$srcdir" PG_CONFIG="$pg_config" >&2
	as_root make -s -C "$srcdir" PG_CONFIG="$pg_config" install >&2
}

# --- 2./4. private cluster --------------------------------------------------------------------

# Debian puts the server binaries outside PATH, per major; take the newest installed.
pg_bindir() {
	local d best=''
	for d in /usr/lib/postgresql/*/bin; do
		[[ -x $d/initdb && -x $d/pg_ctl ]] || continue
		if [[ -z $best || ${d//[!0-9]/} -gt ${best//[!0-9]/} ]]; then best=$d; fi
	done
	[[ -n $best ]] || { have pg_config && [[ -x $(pg_config --bindir)/initdb ]] && best=$(pg_config --bindir); }
	[[ -n $best ]] && printf '%s' "$best"
}

# The server refuses to run as root, so as root the cluster belongs to the `postgres` user.
# 9>&- : the server must not inherit the lock taken in take_lock, or it would hold it forever.
as_cluster_owner() {
	if [[ $EUID -eq 0 ]]; then
		# cd / : the postgres user may not be allowed into the caller's cwd.
		(cd / && runuser -u postgres -- "$@" 9>&-)
	else
		"$@" 9>&-
	fi
}

port_in_use() { # port
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null || (exec 3<>"/dev/tcp/::1/$1") 2>/dev/null
}

private_port() { # read back the port written at init time
	sed -n 's/^port = \([0-9][0-9]*\).*/\1/p' "$PRIVATE_ROOT/data/postgresql.conf" | tail -n1
}

private_cluster_exists() { [[ -f $PRIVATE_ROOT/data/PG_VERSION ]]; }

install_server_packages() {
	# macOS: never install nor run a server of our own; Homebrew's service is the way there.
	if is_darwin; then
		die "no PostgreSQL server found on localhost:5432. Install and start one, then run again:
    brew install postgresql@17 pgvector && brew services start postgresql@17
or, if you use Docker: docker compose -f deploy/compose.yaml up -d db  (then set DATABASE_URL)"
	fi
	pg_bindir >/dev/null && return 0
	have apt-get || die "no PostgreSQL server found and this is not a Debian/Ubuntu system: install PostgreSQL (with contrib and pgvector), start it, and set DATABASE_URL."
	apt_install postgresql postgresql-contrib
	# Debian's package may also create and start its own `main` cluster on 5432; Hearth keeps
	# using the private one once it exists (see the order at the top).
	pg_bindir >/dev/null || die "PostgreSQL was installed but no initdb was found under /usr/lib/postgresql"
}

init_private_cluster() { # bindir
	local bindir=$1 port=$PRIVATE_FIRST_PORT locale_opt=()
	while port_in_use "$port"; do
		port=$((port + 1))
		((port < PRIVATE_FIRST_PORT + 100)) || die "no free port in $PRIVATE_FIRST_PORT..$port"
	done
	mkdir -p "$PRIVATE_ROOT"
	if [[ $EUID -eq 0 ]]; then
		id postgres >/dev/null 2>&1 || die "running as root but there is no 'postgres' OS user to own the cluster"
		chown postgres: "$PRIVATE_ROOT"
		runuser -u postgres -- test -w "$PRIVATE_ROOT" ||
			die "the postgres user cannot reach $PRIVATE_ROOT (a parent folder is private?); set HEARTH_PRIVATE_PGDATA to a folder it can use"
	fi
	chmod 0700 "$PRIVATE_ROOT"
	# A UTF-8 collation so that pg_trgm treats non-ASCII letters as letters.
	if locale -a 2>/dev/null | grep -qix 'c.utf-\?8'; then locale_opt=(--locale=C.UTF-8); fi
	log "initialising a private cluster in $PRIVATE_ROOT/data (port $port)"
	as_cluster_owner "$bindir/initdb" -D "$PRIVATE_ROOT/data" -U postgres --auth=trust \
		--encoding=UTF8 "${locale_opt[@]}" >"$PRIVATE_ROOT/initdb.log" 2>&1 ||
		die "initdb failed, see $PRIVATE_ROOT/initdb.log"
	# localhost + TCP only: trust auth is then limited to this machine (initdb's pg_hba.conf
	# only has 127.0.0.1/::1 host lines), and no unix socket dir has to be writable.
	as_cluster_owner tee -a "$PRIVATE_ROOT/data/postgresql.conf" >/dev/null <<EOF

# Added by deploy/bootstrap-db.sh
listen_addresses = 'localhost'
port = $port
unix_socket_directories = ''
EOF
}

start_private_cluster() { # bindir
	local bindir=$1 port
	port=$(private_port)
	[[ -n $port ]] || die "no port in $PRIVATE_ROOT/data/postgresql.conf"
	if as_cluster_owner "$bindir/pg_ctl" -D "$PRIVATE_ROOT/data" status >/dev/null 2>&1; then
		return 0
	fi
	port_in_use "$port" && die "port $port of the private cluster is taken by another program; stop it or change 'port' in $PRIVATE_ROOT/data/postgresql.conf"
	log "starting the private cluster on port $port (log: $PRIVATE_ROOT/postgresql.log)"
	as_cluster_owner "$bindir/pg_ctl" -D "$PRIVATE_ROOT/data" -l "$PRIVATE_ROOT/postgresql.log" -w -t 60 start >&2 ||
		die "the private cluster did not start, see $PRIVATE_ROOT/postgresql.log"
}

use_private_cluster() {
	local bindir data_major
	if ! private_cluster_exists; then
		install_server_packages
	fi
	ensure_client_tools
	bindir=$(pg_bindir) || die "no PostgreSQL server binaries found"
	if private_cluster_exists; then
		# Binaries must match the major version the cluster was created with.
		data_major=$(<"$PRIVATE_ROOT/data/PG_VERSION")
		[[ -x /usr/lib/postgresql/$data_major/bin/pg_ctl ]] && bindir=/usr/lib/postgresql/$data_major/bin
	else
		init_private_cluster "$bindir"
	fi
	start_private_cluster "$bindir"
	finish_local "$(private_port)" postgres
}

# ---------------------------------------------------------------------------------------------

local_5432_answers() {
	[[ ${HEARTH_BOOTSTRAP_FORCE_PRIVATE:-0} == 1 ]] && return 1
	if have pg_isready; then
		pg_isready -q -h localhost -p 5432 -t 3
	else
		# No client tools yet: something listening is enough to go and install them.
		port_in_use 5432
	fi
}

take_lock() {
	# Two runs at once (make -j, a test and the app) must not both run apt or initdb.
	have flock || return 0
	local lock
	lock="${TMPDIR:-/tmp}/hearth-bootstrap-db-$(id -u).lock"
	exec 9>"$lock"
	flock -w 900 9 || die "another bootstrap-db.sh has held $lock for 15 minutes"
}

main() {
	parse_args "$@"
	take_lock
	if [[ -n ${DATABASE_URL:-} ]]; then
		use_given_url
	elif private_cluster_exists; then
		use_private_cluster
	elif local_5432_answers; then
		ensure_client_tools
		use_server_on_5432
	else
		use_private_cluster
	fi
}

main "$@"
