# cbpf-jit: Debian's Linux 6.1 and 6.12 with a direct classic BPF JIT, as
# packages and QEMU appliances. The two commands a user needs (README.md):
#
#   make run     build what is stale, boot the appliance on this terminal
#                (KERNEL=6.12 for the 6.12 one; default 6.1)
#   make check   for each kernel (debian/config/targets; KERNEL=... for
#                one): host tests, build what is stale, boot headless, gate
#                on the boot-time report (out/KERNEL/report.json, .txt)
#
# Developers: make deb | image | test-host | fuzz | bench | soak |
# check-debug | check-fresh | check-untouched | package-check | repo |
# repo-check | check-install | autopkgtest | check-sources | deb-amd64 | deb-cloud-amd64 |
# repro | tree | patches-export | patches-import | lint | shell | clean
# (docs/kernel.md).
#
# Every goal but a few runs inside the build root (image/buildroot), a
# Debian 12 root in /var/cache/cbpf-jit that holds every tool the build
# needs, so the host's packages, apt sources and boot loader stay as they
# are. On the host itself run only: check-fresh, check-untouched and
# check-sources (they drive the host side or the build root), shell, clean.

SHELL := /bin/sh
HOST_GOALS := check-fresh check-untouched check-sources shell clean
.PHONY: all run check check-kernel check-slow deb image test-host fuzz bench bench-all package-check tree patches-export \
	patches-import repro repo repo-check lint clean deb-debug image-debug check-debug soak check-fresh series-check \
	check-untouched check-sources shell deb-amd64 deb-cloud-amd64 check-install autopkgtest user-input

# The kernels for users' machines (debian/config/flavours, Kind: machine).
MACHINE_FLAVOURS := amd64 cloud-amd64
# Goals that sign (packages for users' machines, the repository): the build
# root then sees the project's keys (image/keys).
SIGNING_GOALS := $(addprefix deb-,$(MACHINE_FLAVOURS)) repo repo-check check-install autopkgtest

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
# The kernel series (debian/config/targets): KERNEL, default its Default.
TARGETS := debian/bin/field debian/config/targets Target
KERNELS := $(shell $(TARGETS) --all)
KERNEL ?= $(shell $(TARGETS) --default)
$(if $(filter $(KERNEL),$(KERNELS)),,$(error KERNEL=$(KERNEL): not one of $(KERNELS) (debian/config/targets)))
KSOURCE := $(shell $(TARGETS) $(KERNEL) Kernel-Source)
# Everything of one kernel goes under build/KERNEL and out/KERNEL.
B := build/$(KERNEL)
OUT := out/$(KERNEL)
DEBS := $(B)/debs
# The developers' kernel tree (make tree).
KSRC := build/linux-dev-$(KERNEL)
# The kernel tree of the last vm package build (image/build-debs).
PKG_KSRC := $(B)/src/vm/build/pkg-vm/linux
SRC_VERSION = $(shell dpkg-query -W -f='$${Version}' $(KSOURCE))
# mkosi.profiles/KERNEL.conf: the appliance of this kernel.
MKOSI := mkosi --profile $(KERNEL)
SHELL_SCRIPTS := image/buildroot image/build-debs image/make-repo image/keys image/series image/series-check image/detect-accel \
	image/boot-check image/user-files image/suite-report image/ktap-check debian/apply-patches debian/bin/gencontrol debian/bin/field \
	tests/boot/cbpf-jit-check tests/boot/tcpdump-check \
	tests/repro/check-reproducible tests/package/check-install-purge tests/package/check-repo-upgrade tests/fresh/check-fresh-host \
	tests/fresh/check-untouched tests/fresh/host-state tests/sources/check-sources tests/bench/run-bench tests/bench/guest-init.sh tests/bench/systemd-syscall-groups tests/bench/side-by-side tests/host/mutate \
	tests/kernel-quick/*.sh tests/install/check-install tests/install/guest-stage \
	tests/autopkgtest/qemu-testbed tests/autopkgtest/run-autopkgtest debian/tests/boot-time-suite \
	initramfs/hooks/cbpf-jit-enable initramfs/scripts/init-top/cbpf-jit-enable .ci/run
# A hang limit, never a verdict: five times the suite on these machines.
CHECK_TIMEOUT ?= 4200
# The debug kernel runs the suite several times slower.
CHECK_DEBUG_TIMEOUT ?= 9000
SOAK_SECONDS ?= 600

# Everything a .deb is made of (the source package, image/build-debs, and
# the kernel source of the build root); the image is made of the .debs and
# image/. The kernel source's version is an input through a file rewritten
# when the version changes: the tarball keeps Debian's date, older than our
# last build after a downgrade or an upgrade to a release built before it.
SRC_VERSION_FILE := $(B)/kernel-source.version
$(shell mkdir -p $(B); [ -f $(SRC_VERSION_FILE) ] && [ "$$(cat $(SRC_VERSION_FILE))" = "$(SRC_VERSION)" ] || \
	echo "$(SRC_VERSION)" > $(SRC_VERSION_FILE))
# $(wildcard): git lists a tracked file deleted in the work tree (a renamed patch)
DEB_INPUTS := $(wildcard $(shell image/build-debs --inputs $(KERNEL))) \
	image/build-debs image/series $(SRC_VERSION_FILE)
IMAGE_INPUTS := mkosi.conf $(wildcard $(shell git ls-files image mkosi.profiles))

all: image

# The Debian packages, built from their .dsc as an unprivileged user
# (image/build-debs); only the kernel objects of the previous build are
# kept, so only what changed is recompiled.
deb: $(DEBS)/.stamp
# A stamp dated when the build starts: an input edited during the build is
# newer than it, so the next make builds again.
$(DEBS)/.stamp: $(DEB_INPUTS)
	@mkdir -p $(@D) && touch $@.new
	@image/build-debs $(KERNEL) vm $(DEBS)
	@mv $@.new $@

# The other flavours (debian/config/flavours): debug, and the kernels for
# users' machines, signed with the project's key (image/keys) unless
# SIGN=no; whether they are signed is an input of their build.
SIGN ?= yes
SIGN_FILE := $(B)/sign.$(SIGN)
$(shell [ -f $(SIGN_FILE) ] || { rm -f $(B)/sign.*; touch $(SIGN_FILE); })
deb-debug $(addprefix deb-,$(MACHINE_FLAVOURS)): deb-%: $(B)/debs-%/.stamp
$(B)/debs-%/.stamp: $(DEB_INPUTS) $(SIGN_FILE)
	@mkdir -p $(@D) && touch $@.new
	@image/build-debs $(KERNEL) $* $(B)/debs-$* $(if $(and $(filter $*,$(MACHINE_FLAVOURS)),$(filter yes,$(SIGN))),--sign)
	@mv $@.new $@

# The appliance image: mkosi.conf and mkosi.profiles/KERNEL.conf.
image: deb $(B)/image/.stamp
$(B)/image/.stamp: $(DEBS)/.stamp $(IMAGE_INPUTS)
	@echo "== building the Linux $(KERNEL) appliance image with mkosi; log: build/logs/mkosi-$(KERNEL).log"
	@mkdir -p build/logs $(B)/image && touch $@.new
	@start=$$(date +%s); \
	if ! $(MKOSI) --force build > build/logs/mkosi-$(KERNEL).log 2>&1; then \
	  echo "error: mkosi build failed; last lines of build/logs/mkosi-$(KERNEL).log:" >&2; \
	  tail -n 25 build/logs/mkosi-$(KERNEL).log >&2; exit 1; fi; \
	echo "   built in $$(($$(date +%s) - start))s: $$(ls $(B)/image/*.raw)"
	@mv $@.new $@

# An interactive boot: a root shell with the JIT on. The boot-time suite is
# not started (make check enables it for its own boots); `cbpf-jit-check`
# runs it by hand.
run: user-input image
	@kvm=$$(image/detect-accel $(B)/image/*.vmlinuz); \
	if [ "$$kvm" = kvm ]; then kvm=yes; else kvm=no; fi; \
	log=build/logs/run-$(KERNEL).log; \
	echo "== booting the Linux $(KERNEL) appliance ($$kvm = KVM; root shell; 'poweroff' to leave; mkosi's messages: $$log)"; \
	$(MKOSI) --qemu-kvm=$$kvm qemu $$(image/user-files --qemu-args) 2> $$log || { rc=$$?; \
	  echo "error: the appliance ended with status $$rc; the last lines of $$log:" >&2; \
	  tail -n 20 $$log >&2; exit $$rc; }

# Your filter list (FILTERS=), each expression compiled by libpcap before
# anything is built (image/user-files).
user-input:
	@image/user-files --validate

# make check: every kernel, or the one KERNEL= names; each is checked even
# when one before it failed, and the end says which failed.
CHECK_KERNELS := $(if $(filter command line,$(origin KERNEL)),$(KERNEL),$(KERNELS))
check: user-input
	@failed=; for k in $(CHECK_KERNELS); do \
	  $(MAKE) --no-print-directory check-kernel KERNEL=$$k || failed="$$failed $$k"; done; \
	if [ -n "$$failed" ]; then echo "make check: FAILED for Linux$$failed" >&2; exit 1; fi; \
	echo "make check: passed for Linux $(CHECK_KERNELS)"

# One kernel: the host tests run on the tree its package was built from
# (its patches/ as they are), then its appliance boots headless.
check-kernel: image
	@echo "== Linux $(KERNEL): host tests of the code generator"
	@$(MAKE) --no-print-directory -C tests/host test KSRC=$(CURDIR)/$(PKG_KSRC) O=$(CURDIR)/tests/host/build/$(KERNEL)
	@echo "== Linux $(KERNEL): the mutation gate: each injected miscompilation caught"
	@$(MAKE) --no-print-directory -C tests/host mutants KSRC=$(CURDIR)/$(PKG_KSRC) O=$(CURDIR)/tests/host/build/$(KERNEL)
	@echo "== Linux $(KERNEL): booting the appliance headless for the boot-time checks"
	@MKOSI_PROFILE=$(KERNEL) image/boot-check $(OUT) $(CHECK_TIMEOUT)

# The same boot with the VM slowed on purpose (one vCPU, a busy loop per
# host core beside it): no verdict may depend on the machine's speed.
check-slow: image
	@echo "== Linux $(KERNEL): booting the appliance slowed on purpose for the boot-time checks"
	@BOOT_SLOW=1 MKOSI_PROFILE=$(KERNEL) image/boot-check $(OUT)-slow $(CHECK_TIMEOUT)

# The appliance with the debug kernel (mkosi.profiles/KERNEL-debug.conf):
# the whole suite with KASAN, kmemleak, lockdep, UBSAN and fault injection.
image-debug: deb-debug $(B)/image-debug/.stamp
$(B)/image-debug/.stamp: $(B)/debs-debug/.stamp $(IMAGE_INPUTS)
	@echo "== building the debug appliance image with mkosi; log: build/logs/mkosi-$(KERNEL)-debug.log"
	@mkdir -p build/logs $(B)/image-debug && touch $@.new
	@if ! mkosi --profile $(KERNEL)-debug --force build > build/logs/mkosi-$(KERNEL)-debug.log 2>&1; then \
	  echo "error: mkosi build failed; last lines of build/logs/mkosi-$(KERNEL)-debug.log:" >&2; \
	  tail -n 25 build/logs/mkosi-$(KERNEL)-debug.log >&2; exit 1; fi
	@mv $@.new $@

check-debug: image-debug
	@echo "== booting the debug appliance headless for the boot-time checks"
	@MKOSI_PROFILE=$(KERNEL)-debug BOOT_CMDLINE="cbpfjit.fuzz_programs=2000 cbpfjit.fuzz_harden_programs=500 cbpfjit.seccomp_fuzz=2000 cbpfjit.seccomp_fuzz_blinded=500 $${BOOT_CMDLINE:-}" \
	  image/boot-check $(OUT)-debug $(CHECK_DEBUG_TIMEOUT)

# A $(SOAK_SECONDS) s soak (traffic, filter churn, switch toggling), then the
# kernel log check.
soak: image
	@echo "== booting the appliance headless for a $(SOAK_SECONDS)s soak"
	@MKOSI_PROFILE=$(KERNEL) BOOT_CMDLINE="cbpfjit.soak=$(SOAK_SECONDS) cbpfjit.sections=kernel,boot,soak,klog" \
	  image/boot-check $(OUT)-soak $$(($(CHECK_TIMEOUT) + $(SOAK_SECONDS)))

# Host-side tests of the code generator, compiled from the kernel tree.
test-host: tree
	@$(MAKE) --no-print-directory -C tests/host test KSRC=$(CURDIR)/$(KSRC) O=$(CURDIR)/tests/host/build/$(KERNEL)

fuzz: tree
	$(MAKE) -C tests/host fuzz KSRC=$(CURDIR)/$(KSRC) O=$(CURDIR)/tests/host/build/$(KERNEL)

# Instructions per packet: interpreter, upstream path, direct JIT, under
# QEMU -icount (out/KERNEL/bench/). Uses the kernel of the last package build.
bench: deb
	@KDIR=$(CURDIR)/$(PKG_KSRC) OUT=$(CURDIR)/$(OUT)/bench $(MAKE) --no-print-directory -C tests/bench bench

# Every kernel's benchmark, then their figures side by side
# (out/bench-side-by-side.md).
bench-all:
	@for k in $(KERNELS); do $(MAKE) --no-print-directory bench KERNEL=$$k || exit 1; done
	@tests/bench/side-by-side out $(KERNELS)

# The developers' kernel tree: the pristine kernel source (git tag "base")
# plus patches/KERNEL as commits. Created when missing; never committed.
tree: $(KSRC)/.git/HEAD
$(KSRC)/.git/HEAD:
	@echo "== creating $(KSRC) from /usr/src/$(KSOURCE).tar.xz ($(SRC_VERSION)) + patches/$(KERNEL)"
	@rm -rf $(KSRC) && mkdir -p build
	@tar -C build -xf /usr/src/$(KSOURCE).tar.xz && mv build/$(KSOURCE) $(KSRC)
	@cd $(KSRC) && git init -q && git add -A -f . && \
	  git -c user.name=base -c user.email=base@localhost commit -qm '$(KSOURCE) $(SRC_VERSION) (pristine)' && git tag base
	@image/series apply $(KERNEL) $(KSRC) || \
	  { echo "error: rebase the series: docs/packaging.md, 'Following Debian's kernel releases'" >&2; exit 1; }

# Commits on top of "base" in the developers' tree -> patches/KERNEL (and
# patches/common for the generator), and back.
patches-export:
	@image/series export $(KERNEL) $(KSRC)

patches-import:
	@image/series apply $(KERNEL) $(KSRC)

# dpkg -i then dpkg --purge of the packages in a Debian 12 chroot leaves
# nothing behind (tests/package/README.md).
package-check: deb
	@tests/package/check-install-purge --debs $(DEBS)

# An apt repository of the kernels for users' machines (build/repo, signed):
# REPO_FLAVOURS of REPO_KERNELS (both: REPO_FLAVOURS="amd64 cloud-amd64",
# REPO_KERNELS="6.1 6.12"), with cbpf-jit-enable and cbpf-jit-tests.
REPO_FLAVOURS ?= cloud-amd64
REPO_KERNELS ?= $(KERNEL)
repo:
	@for k in $(REPO_KERNELS); do for f in $(REPO_FLAVOURS); do \
	  $(MAKE) --no-print-directory deb-$$f KERNEL=$$k || exit 1; done; done
	@image/make-repo build/repo $(foreach k,$(REPO_KERNELS),$(addprefix build/$(k)/debs-,$(REPO_FLAVOURS)))

# A Debian 12 machine in QEMU (GRUB, initramfs-tools, Debian's kernel)
# installs our kernel from the signed repository with apt, boots it through
# the firmware, GRUB and the initramfs, runs the boot-time suite, purges it
# and boots Debian's kernel again, as it was (tests/install/check-install).
# INSTALL_FLAVOUR (in REPO_FLAVOURS), FIRMWARE=bios, uefi, uefi-sb or all.
INSTALL_FLAVOUR ?= cloud-amd64
FIRMWARE ?= all
check-install: repo
	@for fw in $(if $(filter all,$(FIRMWARE)),bios uefi uefi-sb,$(FIRMWARE)); do \
	  tests/install/check-install --kernel $(KERNEL) --flavour $(INSTALL_FLAVOUR) --firmware $$fw || exit 1; done

# Debian's autopkgtest runs debian/tests (the boot-time suite, a package
# test of cbpf-jit-tests) with the cloud-amd64 packages on a Debian 12
# machine in QEMU that reboots into our kernel through GRUB
# (tests/autopkgtest/run-autopkgtest). AUTOPKGTEST_SECTIONS: the suite's
# sections (default: all an installed machine runs).
# AUTOPKGTEST_CONTROL=switch-off: the run that must go red.
autopkgtest: deb-cloud-amd64
	@CBPFJIT_SECTIONS="$(AUTOPKGTEST_SECTIONS)" tests/autopkgtest/run-autopkgtest --kernel $(KERNEL) \
	  --debs $(B)/debs-cloud-amd64 $(if $(AUTOPKGTEST_CONTROL),--control $(AUTOPKGTEST_CONTROL))

# apt install from the previous build's repository, apt upgrade from this
# one, in a fresh Debian 12 root (tests/package/check-repo-upgrade).
repo-check: repo
	@FLAVOUR=$(INSTALL_FLAVOUR) tests/package/check-repo-upgrade

# Two package builds from the same inputs in two different directories must
# give bit-identical .debs.
repro: deb
	@tests/repro/check-reproducible $(B)/source

# What netdev's patch CI checks, for each patch of patches/KERNEL in turn:
# checkpatch, the build, W=1, sparse, kernel-doc, clang, host tests
# (image/series-check; about an hour, not part of make check).
series-check: deb
	@image/series-check $(KERNEL)

lint: deb tree
	@echo "== checkpatch --strict ($(KSRC)'s; accepted: \"does MAINTAINERS need updating?\")"; bad=0; \
	for p in $$(image/series list $(KERNEL)); do \
	  out=$$(cd $(KSRC) && scripts/checkpatch.pl --strict -q $$p 2>/dev/null | grep -E '^(ERROR|WARNING|CHECK)' | \
	    grep -v 'does MAINTAINERS need updating' | tr '\n' ' '); \
	  echo "$${p##*/}: $${out:-clean}"; [ -z "$$out" ] || bad=1; done; \
	[ $$bad = 0 ] || { echo "error: checkpatch --strict: the findings above" >&2; exit 1; }
	@echo "== lintian"; lintian --info --pedantic $(B)/source/*.dsc $(DEBS)/*.deb
	@echo "== shellcheck"; shellcheck -S warning $(SHELL_SCRIPTS)

endif
