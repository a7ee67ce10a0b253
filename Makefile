# cbpf-jit: Debian's Linux 6.1 with a direct classic BPF JIT, as a package and
# a QEMU appliance. The two commands a user needs (README.md):
#
#   make run     build what is stale, boot the appliance on this terminal
#   make check   host tests, build what is stale, boot headless, gate on the
#                boot-time report (out/report.json, out/report.txt)
#
# Developers: make deb | image | test-host | fuzz | bench | soak |
# check-debug | check-fresh | check-untouched | package-check | repo |
# repo-check | check-install | check-sources | deb-amd64 | deb-cloud-amd64 |
# repro | tree | patches-export | patches-import | lint | shell | clean
# (README.md "Working on the kernel").
#
# Every goal but a few runs inside the build root (image/buildroot), a
# Debian 12 root in /var/cache/cbpf-jit that holds every tool the build
# needs, so the host's packages, apt sources and boot loader stay as they
# are. On the host itself run only: check-fresh, check-untouched and
# check-sources (they drive the host side or the build root), shell, clean.

SHELL := /bin/sh
HOST_GOALS := check-fresh check-untouched check-sources shell clean
.PHONY: all run check deb image test-host fuzz bench package-check tree patches-export \
	patches-import repro repo repo-check lint clean deb-debug image-debug check-debug soak check-fresh \
	check-untouched check-sources shell deb-amd64 deb-cloud-amd64 check-install

# The kernels for users' machines (debian/config/flavours, Kind: machine).
MACHINE_FLAVOURS := amd64 cloud-amd64
# Goals that sign (packages for users' machines, the repository): the build
# root then sees the project's keys (image/keys).
SIGNING_GOALS := $(addprefix deb-,$(MACHINE_FLAVOURS)) repo repo-check check-install

ifeq ($(CBPFJIT_IN_BUILDROOT),)
# On the host: hand the goals to make in the build root (created on first
# use), keeping command-line variables (MAKEFLAGS) and the order given.
ROOT_GOALS := $(filter-out $(HOST_GOALS),$(or $(MAKECMDGOALS),all))
ifneq ($(ROOT_GOALS),)
# Your own capture and filter list (PCAP=, FILTERS=; README.md) go into
# build/user from here: the build root sees only the repository.
$(firstword $(ROOT_GOALS)):
	$(if $(filter run check,$(ROOT_GOALS)),@image/user-files "$(PCAP)" "$(FILTERS)")
	@CBPFJIT_NEED_KEYS=$(if $(filter $(SIGNING_GOALS),$(ROOT_GOALS)),1) \
	  image/buildroot run make --no-print-directory $(ROOT_GOALS)
$(wordlist 2,$(words $(ROOT_GOALS)),$(ROOT_GOALS)): $(firstword $(ROOT_GOALS))
	@:
endif

# make check on a fresh Debian 12 (a debootstrapped root with only git and
# make, empty caches), with the host-state check around it (check-untouched).
check-fresh:
	@tests/fresh/check-fresh-host

# Snapshot the host side (packages, /etc/apt, /etc/kernel, /boot, the ESP,
# EFI boot entries, systemd), run make check, snapshot again, compare.
check-untouched:
	@tests/fresh/check-untouched

# The packages and the whole suite against two Debian releases of
# linux-source-6.1, then apt upgrade from one to the other (~55 min).
check-sources:
	@tests/sources/check-sources

# A shell in the build root, at the repository.
shell:
	@image/buildroot shell

clean:
	rm -rf out out-* build

else
# In the build root.
OUT := out
DEBS := build/debs
KSRC := build/linux-dev
# The kernel tree of the last vm package build (image/build-debs).
PKG_KSRC := build/src/vm/build/pkg-vm/linux
# The patch files in order, relative to patches/.
SERIES = $(shell grep -v '^\#' patches/series | grep .)
SRC_VERSION = $(shell dpkg-query -W -f='$${Version}' linux-source-6.1)
SHELL_SCRIPTS := image/buildroot image/build-debs image/make-repo image/keys image/detect-accel image/boot-check \
	image/user-files debian/apply-patches debian/bin/gencontrol tests/boot/cbpf-jit-check tests/boot/tcpdump-check \
	tests/repro/check-reproducible tests/package/check-install-purge tests/package/check-repo-upgrade tests/fresh/check-fresh-host \
	tests/fresh/check-untouched tests/fresh/host-state tests/sources/check-sources tests/bench/run-bench tests/bench/guest-init.sh tests/bench/systemd-syscall-groups \
	tests/kernel-quick/*.sh tests/install/check-install tests/install/guest-stage image/suite-report \
	initramfs/hook initramfs/init-top .ci/run
CHECK_TIMEOUT ?= 2400
# The debug kernel runs the suite several times slower.
CHECK_DEBUG_TIMEOUT ?= 9000
SOAK_SECONDS ?= 600

# Everything a .deb is made of (the source package, image/build-debs, and
# the linux-source-6.1 of the build root); the image is made of the .debs
# and image/.
# The linux-source-6.1 version is an input through a file rewritten when the
# version changes: the tarball keeps Debian's date, older than our last
# build after a downgrade or an upgrade to a release built before it.
SRC_VERSION_FILE := build/linux-source-6.1.version
$(shell mkdir -p build; [ "$$(cat $(SRC_VERSION_FILE) 2>/dev/null)" = "$(SRC_VERSION)" ] || \
	echo "$(SRC_VERSION)" > $(SRC_VERSION_FILE))
# $(wildcard): git lists a tracked file deleted in the work tree (a renamed patch)
DEB_INPUTS := $(wildcard $(shell image/build-debs --inputs)) \
	image/build-debs $(SRC_VERSION_FILE)
IMAGE_INPUTS := mkosi.conf $(wildcard $(shell git ls-files -co --exclude-standard image mkosi.profiles))

all: image

# The Debian packages, built from their .dsc as an unprivileged user
# (image/build-debs); only the kernel objects of the previous build are
# kept, so only what changed is recompiled.
deb: $(DEBS)/.stamp
# A stamp dated when the build starts: an input edited during the build is
# newer than it, so the next make builds again.
$(DEBS)/.stamp: $(DEB_INPUTS)
	@mkdir -p $(@D) && touch $@.new
	@image/build-debs vm $(DEBS)
	@mv $@.new $@

# The other flavours (debian/config/flavours): debug, and the kernels for
# users' machines, signed with the project's key (image/keys) unless
# SIGN=no; whether they are signed is an input of their build.
SIGN ?= yes
SIGN_FILE := build/sign.$(SIGN)
$(shell mkdir -p build; [ -f $(SIGN_FILE) ] || { rm -f build/sign.*; touch $(SIGN_FILE); })
deb-debug $(addprefix deb-,$(MACHINE_FLAVOURS)): deb-%: build/debs-%/.stamp
build/debs-%/.stamp: $(DEB_INPUTS) $(SIGN_FILE)
	@mkdir -p $(@D) && touch $@.new
	@image/build-debs $* build/debs-$* $(if $(and $(filter $*,$(MACHINE_FLAVOURS)),$(filter yes,$(SIGN))),--sign)
	@mv $@.new $@

image: deb build/image/.stamp
build/image/.stamp: $(DEBS)/.stamp $(IMAGE_INPUTS)
	@echo "== building the appliance image with mkosi; log: build/logs/mkosi.log"
	@mkdir -p build/logs build/image && touch $@.new
	@start=$$(date +%s); \
	if ! mkosi --force build > build/logs/mkosi.log 2>&1; then \
	  echo "error: mkosi build failed; last lines of build/logs/mkosi.log:" >&2; \
	  tail -n 25 build/logs/mkosi.log >&2; exit 1; fi; \
	echo "   built in $$(($$(date +%s) - start))s: $$(ls build/image/*.raw)"
	@mv $@.new $@

# An interactive boot: a root shell with the JIT on. The boot-time suite is
# not started (make check enables it for its own boots); `cbpf-jit-check`
# runs it by hand.
run: image
	@kvm=$$(image/detect-accel build/image/*.vmlinuz); \
	if [ "$$kvm" = kvm ]; then kvm=yes; else kvm=no; fi; \
	echo "== booting the appliance ($$kvm = KVM; root shell; 'poweroff' to leave)"; \
	mkosi --qemu-kvm=$$kvm qemu $$(image/user-files --qemu-args)

# The host tests run on the tree the package was built from (patches/ as
# they are), so make check needs no second kernel tree.
check: image
	@$(MAKE) --no-print-directory -C tests/host test KSRC=$(CURDIR)/$(PKG_KSRC)
	@echo "== booting the appliance headless for the boot-time checks"
	@image/boot-check $(OUT) $(CHECK_TIMEOUT)

# The appliance with the debug kernel (mkosi.profiles/debug.conf): the whole
# suite with KASAN, kmemleak, lockdep, UBSAN and fault injection watching.
image-debug: deb-debug build/image-debug/.stamp
build/image-debug/.stamp: build/debs-debug/.stamp $(IMAGE_INPUTS)
	@echo "== building the debug appliance image with mkosi; log: build/logs/mkosi-debug.log"
	@mkdir -p build/logs build/image-debug && touch $@.new
	@if ! mkosi --profile debug --force build > build/logs/mkosi-debug.log 2>&1; then \
	  echo "error: mkosi build failed; last lines of build/logs/mkosi-debug.log:" >&2; \
	  tail -n 25 build/logs/mkosi-debug.log >&2; exit 1; fi
	@mv $@.new $@

check-debug: image-debug
	@echo "== booting the debug appliance headless for the boot-time checks"
	@MKOSI_PROFILE=debug BOOT_CMDLINE="cbpfjit.fuzz_programs=2000 cbpfjit.seccomp_fuzz=2000 $${BOOT_CMDLINE:-}" \
	  image/boot-check $(OUT)-debug $(CHECK_DEBUG_TIMEOUT)

# A $(SOAK_SECONDS) s soak (traffic, filter churn, switch toggling), then the
# kernel log check.
soak: image
	@echo "== booting the appliance headless for a $(SOAK_SECONDS)s soak"
	@BOOT_CMDLINE="cbpfjit.soak=$(SOAK_SECONDS) cbpfjit.sections=kernel,boot,soak,klog" \
	  image/boot-check $(OUT)-soak $$(($(CHECK_TIMEOUT) + $(SOAK_SECONDS)))

# Host-side tests of the code generator, compiled from the kernel tree.
test-host: tree
	@if [ -f tests/host/Makefile ]; then $(MAKE) --no-print-directory -C tests/host test KSRC=$(CURDIR)/$(KSRC); \
	else echo "test-host: no host tests yet"; fi

fuzz: tree
	$(MAKE) -C tests/host fuzz KSRC=$(CURDIR)/$(KSRC)

# Instructions per packet: interpreter, upstream path, direct JIT, under
# QEMU -icount (out/bench/). Uses the kernel of the last package build.
bench: deb
	@$(MAKE) --no-print-directory -C tests/bench bench

# The developers' kernel tree: pristine linux-source-6.1 (git tag "base")
# plus patches/ as commits. Created when missing; never committed.
tree: $(KSRC)/.git/HEAD
$(KSRC)/.git/HEAD:
	@echo "== creating $(KSRC) from /usr/src/linux-source-6.1.tar.xz ($(SRC_VERSION)) + patches/"
	@rm -rf $(KSRC) && mkdir -p build
	@tar -C build -xf /usr/src/linux-source-6.1.tar.xz && mv build/linux-source-6.1 $(KSRC)
	@cd $(KSRC) && git init -q && git add -A -f . && \
	  git -c user.name=base -c user.email=base@localhost commit -qm 'linux-source-6.1 (pristine)' && git tag base
	@cd $(KSRC) && for p in $(SERIES); do \
	  git -c user.name=import -c user.email=import@localhost am -q -3 ../../patches/$$p || \
	    { echo "error: patches/$$p does not apply to linux-source-6.1 $(SRC_VERSION);" \
	      "rebase the series: README.md, 'Debian published a new linux-source-6.1'"; exit 1; }; done

# Commits on top of "base" in the developers' tree -> patches/ (and back).
# --abbrev=9: the index lines do not depend on how many objects the tree has.
patches-export:
	@rm -f patches/*.patch
	@cd $(KSRC) && git format-patch -q --no-numbered --zero-commit --no-signature --abbrev=9 -o ../../patches base..HEAD
	@cd patches && ls *.patch > series 2>/dev/null || : > series
	@echo "patches/: $$(grep -c . patches/series) patches"

patches-import:
	@cd $(KSRC) && git reset -q --hard base && for p in $(SERIES); do \
	  git am -q ../../patches/$$p || { echo "error: patches/$$p does not apply to linux-source-6.1 $(SRC_VERSION)"; exit 1; }; done
	@echo "$(KSRC): $$(cd $(KSRC) && git rev-list --count base..HEAD) patches applied"

# dpkg -i then dpkg --purge of the packages in a Debian 12 chroot leaves
# nothing behind (tests/package/README.md).
package-check: deb
	@tests/package/check-install-purge

# An apt repository of the kernels for users' machines (build/repo, signed;
# REPO_FLAVOURS=amd64 cloud-amd64 for both), with cbpf-jit-enable and
# cbpf-jit-tests.
REPO_FLAVOURS ?= cloud-amd64
repo: $(addprefix deb-,$(REPO_FLAVOURS))
	@image/make-repo build/repo $(addprefix build/debs-,$(REPO_FLAVOURS))

# A Debian 12 machine in QEMU (GRUB, initramfs-tools, Debian's kernel)
# installs our kernel from the signed repository with apt, boots it through
# the firmware, GRUB and the initramfs, runs the boot-time suite, purges it
# and boots Debian's kernel again, as it was (tests/install/check-install).
# INSTALL_FLAVOUR (in REPO_FLAVOURS), FIRMWARE=bios, uefi or both.
INSTALL_FLAVOUR ?= cloud-amd64
FIRMWARE ?= both
check-install: repo
	@for fw in $(if $(filter both,$(FIRMWARE)),bios uefi,$(FIRMWARE)); do \
	  tests/install/check-install --flavour $(INSTALL_FLAVOUR) --firmware $$fw || exit 1; done

# apt install from the previous build's repository, apt upgrade from this
# one, in a fresh Debian 12 root (tests/package/check-repo-upgrade).
repo-check: repo
	@tests/package/check-repo-upgrade

# Two package builds from the same inputs in two different directories must
# give bit-identical .debs.
repro: deb
	@tests/repro/check-reproducible

lint: deb tree
	@echo "== checkpatch --strict"; cd $(KSRC) && for p in $(SERIES); do \
	  echo "$$p: $$(scripts/checkpatch.pl --strict -q ../../patches/$$p 2>/dev/null | grep -E '^(ERROR|WARNING|CHECK)' | tr '\n' ' ')"; done
	@echo "== lintian"; lintian --info --pedantic build/source/*.dsc $(DEBS)/*.deb
	@echo "== shellcheck"; shellcheck -S warning $(SHELL_SCRIPTS)

endif
