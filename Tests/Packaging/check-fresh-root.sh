#!/bin/sh
# Proves the Debian package on a fresh Debian 12 (bookworm), as a user would meet it:
#
#   Tests/Packaging/check-fresh-root.sh .build/debian/gallery_<version>_<arch>.deb
#
# Makes a minimal root with mmdebstrap (--variant=apt, plus man-db to read the pages) from the
# Debian archive this machine uses (its apt sources), installs the package there with
# `apt-get install ./gallery_….deb` (apt resolves the dependencies; nothing else is installed),
# and inside it runs the README tour: create --cache from the sample images, open, edit, export
# html / contact-sheet / cbz, browse, verify; `man gallery-export`; `gallery serve` answering a
# request (from this machine: the root shares its network). Then it purges the package and the
# dependencies apt brought, and checks that none of the package's files is left and that the root
# holds no file it did not hold before, outside what the dependencies' own scripts leave in /etc. Prints what it measured (sizes, each command's exit status, time); exits 1 on the
# first failure. Needs root (chroot), mmdebstrap and python3; takes a few minutes (downloads).
set -eu
deb=$(realpath "$1")
cd "$(dirname "$0")/../.."
started=$(date +%s)
root=$(mktemp -d /tmp/gallery-fresh-root.XXXXXX)
cleanup() {
    for mount in dev/pts dev proc sys; do umount -l "$root/$mount" 2>/dev/null || true; done
    # Never into this machine's /dev or /proc, should an unmount have failed.
    rm -rf --one-file-system "$root" "$root".*
}
trap cleanup EXIT
fail() { echo "check-fresh-root: FAIL: $*"; exit 1; }

sources=/etc/apt/sources.list.d/debian.sources
[ -f "$sources" ] || sources=/etc/apt/sources.list
mmdebstrap --quiet --variant=apt --include=man-db bookworm "$root" "$sources" || fail "mmdebstrap could not make the root"
cp /etc/resolv.conf "$root/etc/resolv.conf"
for mount in proc sys dev dev/pts; do mount --bind "/$mount" "$root/$mount"; done
inside() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

# What the root holds before: compared with what it holds after the purge (not /run or /tmp,
# which a real system clears at boot, nor the package manager's own state and caches).
snapshot() {
    inside find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /var/cache \
        -o -path /var/lib/apt -o -path /var/lib/dpkg -o -path /var/log -o -path /root \) -prune -o -print | sort
}
snapshot > "$root.before"
inside dpkg-query -W -f='${Package}\n' | sort > "$root.packages"

cp "$deb" "$root/tmp/"
name=$(basename "$deb")
# mmdebstrap leaves no package lists in the root: as on a fresh machine, apt reads them first.
inside apt-get update -q > "$root.install.log" 2>&1 || { tail -5 "$root.install.log"; fail "apt-get update failed"; }
inside apt-get install -y -q "/tmp/$name" >> "$root.install.log" 2>&1 || { tail -20 "$root.install.log"; fail "apt-get install ./$name failed"; }
brought=$(grep -c '^Setting up ' "$root.install.log" || true)
echo "package: $name, $(du -k "$deb" | cut -f1) KiB; installed size $(inside dpkg-query -W -f='${Installed-Size}' gallery) KiB; apt set up $brought packages (gallery and its dependencies)"
[ "$(inside dpkg-query -W -f='${Version}' gallery)" = "$(inside gallery --version)" ] || fail "gallery --version is not the package's version"

mkdir -p "$root/tmp/tour"
cp Specs/Examples/images/* "$root/tmp/tour/"
step() {
    label=$1
    shift
    if inside sh -c "cd /tmp/tour && $*" > "$root.step.log" 2>&1; then
        echo "  ok (exit 0): $label"
    else
        status=$?
        sed 's/^/    /' "$root.step.log" | tail -5
        fail "$label: exit $status"
    fi
}
echo "the README tour inside the root:"
step "gallery --version" gallery --version
step "create --cache" gallery create Trip.gallery --title "'Summer trip'" --cache 01-dawn.jpg 02-forest.jpg 03-portrait-exif6.jpg 05-leaf.webp
step "open" gallery open Trip.gallery
step "edit move" gallery edit Trip.gallery move 4 --to 1
step "edit caption" gallery edit Trip.gallery caption 1 "'Leaf'"
step "edit undo" gallery edit Trip.gallery undo
step "export html" gallery export Trip.gallery --format html --output Site
step "export contact-sheet" gallery export Trip.gallery --format contact-sheet --output Trip.jpg
step "export cbz" gallery export Trip.gallery --format cbz --output Trip.cbz
step "browse" gallery browse .
step "verify" gallery verify Trip.gallery
step "man gallery-export" "man gallery-export | grep -q -- --format"
step "the bash completion is the program's" "gallery --generate-completion-script bash | cmp - /usr/share/bash-completion/completions/gallery"
step "the zsh completion is the program's" "gallery --generate-completion-script zsh | cmp - /usr/share/zsh/vendor-completions/_gallery"
step "the fish completion is the program's" "gallery --generate-completion-script fish | cmp - /usr/share/fish/vendor_completions.d/gallery.fish"
step "man gallery-edit lists the actions" "man gallery-edit | grep -q 'gallery edit Trip.gallery swap'"

# serve: started inside the root (its process id written down: the shell that starts it in the
# background is not it), asked from here.
inside sh -c 'cd /tmp/tour && echo $$ > /tmp/serve.pid && exec gallery serve .' > "$root.serve.log" 2>&1 &
server=$!
answer=$(python3 - "$root.serve.log" <<'PY'
import re, sys, time, urllib.request, http.cookiejar
for _ in range(100):
    match = re.search(r"(http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64})", open(sys.argv[1]).read())
    if match:
        break
    time.sleep(0.1)
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
with opener.open(match.group(1), timeout=10) as page:
    print(page.status, page.headers["Content-Type"], len(page.read()), "bytes")
PY
) || { kill -TERM "$(cat "$root/tmp/serve.pid")"; fail "gallery serve did not answer: $(cat "$root.serve.log")"; }
kill -TERM "$(cat "$root/tmp/serve.pid")"
wait "$server" || fail "gallery serve did not stop on SIGTERM: $(cat "$root.serve.log")"
echo "  ok: gallery serve answered the browser page: $answer; stopped on SIGTERM"

# The purge: gallery's files are gone, and so is every file the install added but what the
# dependencies' own scripts leave in /etc (ca-certificates' configuration, a shadow backup).
inside dpkg-query -L gallery > "$root.files"
inside apt-get purge -y -q --autoremove gallery > "$root.purge.log" 2>&1 || fail "apt-get purge gallery failed"
# What apt brought and autoremove keeps (packages that others it brought recommend) goes too.
inside dpkg-query -W -f='${Package}\n' | sort | comm -13 "$root.packages" - > "$root.kept"
if [ -s "$root.kept" ]; then
    # shellcheck disable=SC2046
    inside apt-get purge -y -q $(cat "$root.kept") >> "$root.purge.log" 2>&1 || fail "apt-get purge of what apt brought failed"
fi
rm -rf "$root/tmp/tour" "$root/tmp/$name" "$root/tmp/serve.pid"
inside dpkg-query -W gallery > /dev/null 2>&1 && fail "dpkg still knows gallery after the purge"
while read -r path; do
    if [ -e "$root$path" ] && ! [ -d "$root$path" ]; then fail "the purge left $path"; fi
done < "$root.files"
snapshot > "$root.after"
comm -23 "$root.before" "$root.after" > "$root.taken"
comm -13 "$root.before" "$root.after" > "$root.left"
[ -s "$root.taken" ] && fail "the install and purge took away $(head -3 "$root.taken" | tr '\n' ' ')"
grep -v '^/etc/' "$root.left" > "$root.stray" || true
grep gallery "$root.left" >> "$root.stray" || true
[ -s "$root.stray" ] && fail "the purge left $(sort -u "$root.stray" | head -5 | tr '\n' ' ')"
echo "purged gallery and the $(grep -c '^Removing ' "$root.purge.log" || true) packages apt brought ($(wc -l < "$root.kept") kept by autoremove): none of gallery's $(wc -l < "$root.files") paths is left," \
    "nothing outside /etc is; the dependencies' scripts left $(wc -l < "$root.left") paths in /etc: $(tr '\n' ' ' < "$root.left")"
echo "check-fresh-root: OK in $(( $(date +%s) - started )) s"
