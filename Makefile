# cbpf-jit: Debian's Linux 6.1 with a direct classic BPF JIT, as a package and
# a QEMU appliance. The two commands a user needs (README.md):
#
#   make run     build what is stale, boot the appliance on this terminal
#   make check   host tests, build what is stale, boot headless, gate on the
#                boot-time report (out/report.json, out/report.txt)
#
# Developers: make deb | image | test-host | fuzz | bench | soak | check-debug |
# check-fresh | package-check | tree | patches-export | patches-import | repro |
# lint | clean
# (README.md "Working on the kernel").

SHELL := /bin/sh
# Read without dpkg-dev: on a fresh machine `make deps` installs it only
# after this line has been expanded.
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
OUT := out
DEBS := build/debs
KSRC := build/linux-dev
# The patch files in order, relative to patches/.
SERIES = $(shell grep -v '^\#' patches/series | grep .)
CHECK_TIMEOUT ?= 2400
# The debug kernel runs the suite several times slower.
CHECK_DEBUG_TIMEOUT ?= 9000
SOAK_SECONDS ?= 600

# Everything a .deb is made of; the image is made of the .debs and image/.
DEB_INPUTS := $(shell git ls-files -co --exclude-standard debian patches sysctl.d tests/boot tests/host tests/include)
IMAGE_INPUTS := mkosi.conf $(shell git ls-files -co --exclude-standard image mkosi.profiles)

.PHONY: all run check deps deb image test-host fuzz bench package-check tree patches-export \
	patches-import repro lint clean deb-debug image-debug check-debug soak check-fresh

all: image

deps:
	@image/install-host-deps

# The Debian packages, built incrementally: -nc keeps the kernel tree of the
# previous build (build/pkg-<flavour>) so only what changed is rebuilt.
# $(call build-debs,DEST,LOG,PROFILES): dpkg-buildpackage into DEST.
define build-debs
	@echo "== building the Debian packages ($(VERSION)$(if $(3), $(3))); log: $(2)"
	@mkdir -p build/logs $(1)
	@# dh remembers finished steps; forget them so the kernel build step runs
	@# (it rebuilds only what changed).
	@rm -rf debian/debhelper-build-stamp debian/.debhelper debian/*.debhelper.log debian/files
	@start=$$(date +%s); \
	if ! dpkg-buildpackage -b -uc -us -nc $(if $(3),-P$(3)) > $(2) 2>&1; then \
	  echo "error: dpkg-buildpackage failed; last lines of $(2):" >&2; \
	  grep -E 'error|Error' $(2) | tail -n 15 >&2; exit 1; fi; \
	echo "   built in $$(($$(date +%s) - start))s"
	@rm -f $(1)/*.deb
	@mv ../linux-image-*_$(VERSION)_amd64.deb ../cbpf-jit-*_$(VERSION)_*.deb $(1)/
	@mv ../linux-cbpfjit_$(VERSION)_amd64.buildinfo ../linux-cbpfjit_$(VERSION)_amd64.changes build/logs/
	@ls -l $(1)/*.deb | awk '{ print "   " $$NF " (" $$5 " bytes)" }'
	@touch $(1)/.stamp
endef

deb: deps $(DEBS)/.stamp
$(DEBS)/.stamp: $(DEB_INPUTS)
	$(call build-debs,$(DEBS),build/logs/deb.log,)

# The debug flavour (debian/config/debug.config), in build/pkg-debug.
deb-debug: deps build/debs-debug/.stamp
build/debs-debug/.stamp: $(DEB_INPUTS)
	$(call build-debs,build/debs-debug,build/logs/deb-debug.log,pkg.linux-cbpfjit.debug)

image: deb build/image/.stamp
build/image/.stamp: $(DEBS)/.stamp $(IMAGE_INPUTS)
	@echo "== building the appliance image with mkosi; log: build/logs/mkosi.log"
	@mkdir -p build/logs build/image
	@start=$$(date +%s); \
	if ! mkosi --force build > build/logs/mkosi.log 2>&1; then \
	  echo "error: mkosi build failed; last lines of build/logs/mkosi.log:" >&2; \
	  tail -n 25 build/logs/mkosi.log >&2; exit 1; fi; \
	echo "   built in $$(($$(date +%s) - start))s: $$(ls build/image/*.raw)"
	@touch $@

run: image
	@kvm=$$(image/detect-accel build/image/*.vmlinuz); \
	if [ "$$kvm" = kvm ]; then kvm=yes; else kvm=no; fi; \
	echo "== booting the appliance (log in as root; 'poweroff' to leave)"; \
	mkosi --qemu-kvm=$$kvm qemu

check: test-host image
	@echo "== booting the appliance headless for the boot-time checks"
	@image/boot-check $(OUT) $(CHECK_TIMEOUT)

# The appliance with the debug kernel (mkosi.profiles/debug.conf): the whole
# suite with KASAN, kmemleak, lockdep, UBSAN and fault injection watching.
image-debug: deb-debug build/image-debug/.stamp
build/image-debug/.stamp: build/debs-debug/.stamp $(IMAGE_INPUTS)
	@echo "== building the debug appliance image with mkosi; log: build/logs/mkosi-debug.log"
	@mkdir -p build/logs build/image-debug
	@if ! mkosi --profile debug --force build > build/logs/mkosi-debug.log 2>&1; then \
	  echo "error: mkosi build failed; last lines of build/logs/mkosi-debug.log:" >&2; \
	  tail -n 25 build/logs/mkosi-debug.log >&2; exit 1; fi
	@touch $@

check-debug: image-debug
	@echo "== booting the debug appliance headless for the boot-time checks"
	@MKOSI_PROFILE=debug image/boot-check $(OUT)-debug $(CHECK_DEBUG_TIMEOUT)

# A $(SOAK_SECONDS) s soak (traffic, filter churn, switch toggling), then the
# kernel log check.
soak: image
	@echo "== booting the appliance headless for a $(SOAK_SECONDS)s soak"
	@BOOT_CMDLINE="cbpfjit.soak=$(SOAK_SECONDS) cbpfjit.sections=kernel,boot,soak,klog" \
	  image/boot-check $(OUT)-soak $$(($(CHECK_TIMEOUT) + $(SOAK_SECONDS)))

# make check on a fresh Debian 12 (a debootstrapped chroot with only git and
# make, empty caches): proves what the README promises, and leaves this
# host's packages alone (out-fresh/).
check-fresh:
	@tests/fresh/check-fresh-host

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
	@$(MAKE) --no-print-directory deps
	@echo "== creating $(KSRC) from /usr/src/linux-source-6.1.tar.xz + patches/"
	@rm -rf $(KSRC) && mkdir -p build
	@tar -C build -xf /usr/src/linux-source-6.1.tar.xz && mv build/linux-source-6.1 $(KSRC)
	@cd $(KSRC) && git init -q && git add -A -f . && \
	  git -c user.name=base -c user.email=base@localhost commit -qm 'linux-source-6.1 (pristine)' && git tag base
	@cd $(KSRC) && for p in $(SERIES); do \
	  git -c user.name=import -c user.email=import@localhost am -q ../../patches/$$p || \
	    { echo "error: patches/$$p does not apply"; exit 1; }; done

# Commits on top of "base" in the developers' tree -> patches/ (and back).
patches-export:
	@rm -f patches/*.patch
	@cd $(KSRC) && git format-patch -q --no-numbered --zero-commit --no-signature -o ../../patches base..HEAD
	@cd patches && ls *.patch > series 2>/dev/null || : > series
	@echo "patches/: $$(grep -c . patches/series) patches"

patches-import:
	@cd $(KSRC) && git reset -q --hard base && for p in $(SERIES); do \
	  git am -q ../../patches/$$p || { echo "error: patches/$$p does not apply"; exit 1; }; done
	@echo "$(KSRC): $$(cd $(KSRC) && git rev-list --count base..HEAD) patches applied"

# dpkg -i then dpkg --purge of the packages in a Debian 12 chroot leaves
# nothing behind (tests/package/README.md).
package-check: deb
	@tests/package/check-install-purge

# Two package builds from the same inputs in two different directories must
# give bit-identical .debs.
repro: deps
	@tests/repro/check-reproducible

lint: deb tree
	@echo "== checkpatch --strict"; cd $(KSRC) && for p in $(SERIES); do \
	  echo "$$p: $$(scripts/checkpatch.pl --strict -q ../../patches/$$p 2>/dev/null | grep -E '^(ERROR|WARNING|CHECK)' | tr '\n' ' ')"; done
	@echo "== lintian"; lintian --info --pedantic $(DEBS)/*.deb
	@echo "== shellcheck"; shellcheck -S warning image/install-host-deps image/detect-accel \
	  image/boot-check tests/boot/cbpf-jit-check tests/boot/tcpdump-check debian/apply-patches \
	  tests/repro/check-reproducible tests/package/check-install-purge tests/fresh/check-fresh-host tests/bench/run-bench tests/bench/guest-init.sh tests/kernel-quick/*.sh .ci/run

clean:
	rm -rf $(OUT) $(OUT)-debug $(OUT)-soak $(OUT)-fresh build/image build/image-debug build/debs build/debs-debug build/logs
	@[ ! -d build/pkg-vm ] && [ ! -d build/pkg-debug ] || debian/rules clean
