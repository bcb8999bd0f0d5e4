#!/usr/bin/env bash
# Serve a class from a machine every student can reach (a campus VM or a cloud VM, Debian or
# Ubuntu), in one command, as root, from a clone of the project:
#
#   sudo deploy/install.sh class.example.edu teacher@example.edu   # a name in public DNS: Let's Encrypt
#   sudo deploy/install.sh 10.20.0.5                                # no public name: Caddy's own authority
#
# (or `make server SITE=... TLS=...`). It installs Debian's caddy and postgresql, the classroom into
# /opt/ra-classroom/venv, a PostgreSQL database ra_classroom, and two services: ra-classroom (the
# classroom server on 127.0.0.1:8000, deploy/ra-classroom.service) and caddy (HTTPS on 443 in
# front of it, deploy/Caddyfile); then it prints the students' address and the teacher's secret.
# Run again, it updates the code and keeps the secret and the database. Ports 80 and 443 must be
# open to the students (the campus or cloud firewall); Let's Encrypt needs port 80 from the internet.
set -euo pipefail
cd "$(dirname "$0")/.."
SITE=${1:?"usage: deploy/install.sh <the machine's name or address> [the teacher's e-mail, for Let's Encrypt]"}
TLS=${2:-internal}
[ "$(id -u)" = 0 ] || { echo "Run as root (sudo deploy/install.sh ...): it installs packages and services." >&2; exit 1; }
case "$SITE" in
  http://*) echo "The site is served over HTTPS: give its name or address without http://." >&2; exit 1 ;;
  https://*) URL=$SITE ;;
  *) URL=https://$SITE ;;
esac
# A bare IP address needs https:// for Caddy to serve it over TLS; a name gets it by itself.
if [ "$TLS" != internal ] && [[ "$URL" =~ ^https://[0-9.]+(:[0-9]+)?$|^https://\[ ]]; then
  echo "Let's Encrypt certifies names, not addresses: give a name in public DNS, or no e-mail (Caddy's own authority)." >&2
  exit 1
fi

echo "Installing Debian's caddy, postgresql and python3-venv"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy postgresql python3-venv >/dev/null

echo "Installing the classroom into /opt/ra-classroom/venv"
id ra_classroom >/dev/null 2>&1 || useradd --system --home-dir /var/lib/ra-classroom --shell /usr/sbin/nologin ra_classroom
install -d -o ra_classroom -g ra_classroom -m 750 /var/lib/ra-classroom
install -d -m 755 /opt/ra-classroom
[ -x /opt/ra-classroom/venv/bin/python ] || python3 -m venv /opt/ra-classroom/venv
/opt/ra-classroom/venv/bin/python -m pip install --quiet --upgrade pip
/opt/ra-classroom/venv/bin/python -m pip install --quiet --upgrade ".[classroom]"
install -m 644 README.md /opt/ra-classroom/README.md

echo "Making the PostgreSQL database ra_classroom (its owner: the service's user, over the local socket)"
systemctl enable --now postgresql >/dev/null
runuser -u postgres -- psql -qtAc "SELECT 1 FROM pg_roles WHERE rolname = 'ra_classroom'" | grep -q 1 \
  || runuser -u postgres -- createuser ra_classroom
runuser -u postgres -- psql -qtAc "SELECT 1 FROM pg_database WHERE datname = 'ra_classroom'" | grep -q 1 \
  || runuser -u postgres -- createdb -O ra_classroom ra_classroom

echo "Writing /etc/ra-classroom/classroom.env and caddy.env"
install -d -m 755 /etc/ra-classroom
ENV=/etc/ra-classroom/classroom.env
SECRET=$(sed -n 's/^RA_CLASSROOM_SECRET=//p' "$ENV" 2>/dev/null || true)
[ -n "$SECRET" ] || SECRET=$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')
umask 077
cat > "$ENV" <<EOF
DATABASE_URL=postgresql://ra_classroom@/ra_classroom?host=/var/run/postgresql
RA_CLASSROOM_SECRET=$SECRET
RA_CLASSROOM_ADDRESS=$URL
RA_CLASSROOM_TRUSTED_PROXY=127.0.0.1
RA_CLASSROOM_PROCESSES=$(nproc)
EOF
chown root:ra_classroom "$ENV"
chmod 640 "$ENV"
umask 022
cat > /etc/ra-classroom/caddy.env <<EOF
RA_CLASSROOM_SITE=$SITE
RA_CLASSROOM_TLS=$TLS
RA_CLASSROOM_UPSTREAM=127.0.0.1:8000
EOF

echo "Installing the services ra-classroom and caddy"
install -m 644 deploy/ra-classroom.service /etc/systemd/system/ra-classroom.service
install -d -m 755 /etc/systemd/system/caddy.service.d
install -m 644 deploy/caddy-classroom.conf /etc/systemd/system/caddy.service.d/ra-classroom.conf
install -m 644 deploy/Caddyfile /etc/caddy/Caddyfile
systemctl daemon-reload
systemctl enable --now ra-classroom caddy >/dev/null
systemctl restart ra-classroom caddy

for _ in $(seq 60); do
  curl -fsS -o /dev/null --insecure "$URL/healthz" 2>/dev/null && break
  sleep 1
done
curl -fsS -o /dev/null --insecure "$URL/healthz" \
  || { echo "The classroom does not answer at $URL yet: journalctl -u ra-classroom -u caddy says why." >&2; exit 1; }

ROOT_CERT=/var/lib/caddy/.local/share/caddy/pki/authorities/local/root.crt
cat <<EOF

The classroom answers at $URL (students: that address and the room code, or the room's link).
From the teacher's laptop, in the control room notebook or any notebook:

    from ra_classroom import ControlRoom
    room = ControlRoom.connect("$URL", "$SECRET")

The teacher's secret is kept in $ENV.
EOF
if [ "$TLS" = internal ]; then
  cat <<EOF
The certificate comes from Caddy's own authority: students' browsers warn once (Advanced, then
proceed), unless their devices trust its root, $ROOT_CERT. Copy that file to the teacher's laptop
and start Jupyter with SSL_CERT_FILE=/path/to/root.crt, so that ControlRoom.connect trusts it.
EOF
fi
