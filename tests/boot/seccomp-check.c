// SPDX-License-Identifier: GPL-2.0
/* placeholder, replaced by the seccomp differential check */
int main(void) { return 0; }
