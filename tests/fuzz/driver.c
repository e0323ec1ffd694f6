// SPDX-License-Identifier: GPL-2.0-only
/* Replays a fuzz corpus through LLVMFuzzerTestOneInput: every file given, or
 * every file in every directory given. A crash fails the test; the sanitizers
 * (ASan/UBSan build) turn memory errors into crashes. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fuzz driver: cannot open %s\n", path);
		return -1;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		fprintf(stderr, "fuzz driver: cannot read %s\n", path);
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int count = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "fuzz driver: %s: no such corpus\n", argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[i]) < 0)
				return 1;
			count++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			if (run_file(path) < 0) {
				closedir(d);
				return 1;
			}
			count++;
		}
		if (d)
			closedir(d);
	}
	/* Always also run the empty input. */
	LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
	printf("fuzz driver: %d corpus inputs replayed without a crash\n", count);
	return count > 0 ? 0 : 1;
}
