#!/bin/sh
# Builds the Debian package of gallery from this checkout, then checks it with lintian:
#
#   Tests/Packaging/build-deb.sh [OUTDIR]
#
# writes OUTDIR/gallery_<version>_<arch>.deb (default OUTDIR: .build/debian). (The package is
# always the release build: a debug build does not link with --static-swift-stdlib, its static
# Foundation's archives are not searched again for what later objects need.)
#
# What goes in, all made from this checkout so that nothing drifts:
#   /usr/bin/gallery            the release program, the Swift runtime and Foundation linked in
#                               (--static-swift-stdlib) and every page, script and template
#                               inside it (SwiftPM's embedInCode resources), stripped
#   /usr/share/man/man1/        a page for gallery and each subcommand (gallery-export.1 …),
#                               from the argument-parser definitions (its generate-manual plugin)
#   completions                 bash, zsh and fish, from `gallery --generate-completion-script`
#   /usr/share/mime/packages/   the shared-mime-info definition (Specs/mime/gallery.xml, with its
#                               magic); shared-mime-info's own trigger updates the database
#   /usr/share/gallery/         the file(1) magic rule (Specs/mime/gallery.magic), for `file -m`:
#                               Debian's file has no folder for other packages' rules
#   /usr/share/doc/gallery/     copyright, changelog; lintian's overrides, each with why
# Depends: what dpkg-shlibdeps finds the program linked against, and libvips42, which the program
# loads with dlopen (so no tool sees it): reading an image's size, thumbnails, previews and contact
# sheets need it, so `create` and `add` do. The version is `gallery --version` (GalleryKitVersion).
#
# Needs swift, dpkg-dev (dpkg-deb, dpkg-shlibdeps), lintian and gzip; .ci/install installs them.
set -eu
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:-.build/debian}")
mkdir -p "$out"

# The man pages come from the definitions, which the configuration does not change: the plugin
# builds in debug (what the tests built) rather than rebuild everything in release without the
# static runtime.
swift package generate-manual --multi-page --configuration debug --authors "The GalleryKit authors" >/dev/null
manuals=.build/plugins/GenerateManual/outputs/gallery
# With the toolset, as the README builds it: every start about a millisecond quicker (see there).
swift build -c release --static-swift-stdlib --toolset .ci/release-toolset.json --product gallery
program=.build/release/gallery
version=$("$program" --version)
arch=$(dpkg --print-architecture)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/gallery_${version}_$arch
install -d -m 0755 "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/doc/gallery" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/mime/packages" "$root/usr/share/gallery" \
    "$root/usr/share/lintian/overrides"
install -m 0755 "$program" "$root/usr/bin/gallery"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/gallery"

# The plugin names a page gallery.export.1; `man gallery-export` finds it by the file name, and
# whatis (lexgrog) by a NAME of one word. Its mdoc also needs three mends: an empty line (from
# the help's paragraphs) is a paragraph (.Pp), a text line that starts with ' is escaped (a
# control line to roff), and the NAME's description is not quoted. The text is the help's.
for page in "$manuals"/*.1; do
    command=$(basename "$page" .1 | tr . ' ')
    name=$(echo "$command" | tr ' ' -)
    awk -v name="$name" -v command="$command" '
        /^\.Sh / { section = $2 }
        /^\.Dt / { print ".Dt " toupper(name) " " $3; next }
        section == "NAME" && /^\.Nm/ { print ".Nm " name; next }
        section == "NAME" && /^\.Nd "/ { sub(/^\.Nd "/, ".Nd "); sub(/"$/, ""); print; next }
        /^\.Nm$/ { print ".Nm \"" command "\""; next }
        /^$/ { print ".Pp"; next }
        /^\047/ { print "\\&" $0; next }
        { print }' "$page" | gzip -9n > "$root/usr/share/man/man1/$name.1.gz"
done
"$program" --generate-completion-script bash > "$root/usr/share/bash-completion/completions/gallery"
"$program" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_gallery"
"$program" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/gallery.fish"
install -m 0644 Specs/mime/gallery.xml "$root/usr/share/mime/packages/gallerykit.xml"
install -m 0644 Specs/mime/gallery.magic "$root/usr/share/gallery/gallery.magic"
install -m 0644 Tests/Packaging/debian/copyright "$root/usr/share/doc/gallery/copyright"
install -m 0644 Tests/Packaging/debian/lintian-overrides "$root/usr/share/lintian/overrides/gallery"
# A native package's changelog: this version, dated by the last commit (so that a rebuild of the
# same commit makes the same package).
date=$(git log -1 --format=%cD 2>/dev/null || date -R)
printf 'gallery (%s) unstable; urgency=medium\n\n  * Release %s: see README.md for what it does.\n\n -- %s  %s\n' \
    "$version" "$version" "$(sed -n 's/^Maintainer: //p' Tests/Packaging/debian/control.in)" "$date" \
    | gzip -9n > "$root/usr/share/doc/gallery/changelog.gz"
find "$root/usr" -type f -exec chmod 0644 {} + && chmod 0755 "$root/usr/bin/gallery"

# dpkg-shlibdeps reads debian/control of a source tree: a minimal one in the work folder.
mkdir -p "$work/debian"
printf 'Source: gallery\n\nPackage: gallery\nArchitecture: any\n' > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O "$root/usr/bin/gallery" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
depends="$shlibs, libvips42 (>= 8.14)"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    Tests/Packaging/debian/control.in > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -exec md5sum {} + | sort -k2) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

package=$out/gallery_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$package" >/dev/null
echo "built $package ($(du -k "$package" | cut -f1) KiB, installed $size KiB); Depends: $depends"
# The tags we cannot avoid are overridden in the package, each with why
# (Tests/Packaging/debian/lintian-overrides); any other error or warning fails the build.
lintian --fail-on error,warning "$package"
echo "lintian: no errors, no warnings (overridden: $(grep -c '^gallery:' Tests/Packaging/debian/lintian-overrides))"
