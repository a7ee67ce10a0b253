/* SPDX-License-Identifier: GPL-2.0 */
/* Appended to kconv.c: bpf_migrate_filter()'s two calls (filter.c:1242);
 * *conv_len: the length of the converted program. */
int kconv_check_len(const struct sock_filter *prog, int len, int *conv_len);
int kconv_check_len(const struct sock_filter *prog, int len, int *conv_len)
{
	struct sock_filter *old = malloc(sizeof(*old) * (size_t)len);
	struct bpf_prog_aux aux = { 0 };
	struct bpf_prog *fp;
	bool seen_ld_abs = false;
	int new_len = 0, err;

	memcpy(old, prog, sizeof(*old) * (size_t)len);
	err = bpf_convert_filter(old, len, NULL, &new_len, &seen_ld_abs);
	if (!err) {
		fp = calloc(1, sizeof(*fp) + sizeof(struct bpf_insn) * (size_t)new_len);
		fp->aux = &aux;
		err = bpf_convert_filter(old, len, fp, &new_len, &seen_ld_abs);
		free(fp);
	}
	free(old);
	*conv_len = new_len;
	return err;
}

int kconv_check(const struct sock_filter *prog, int len);
int kconv_check(const struct sock_filter *prog, int len)
{
	int conv_len;

	return kconv_check_len(prog, len, &conv_len);
}
