// SPDX-License-Identifier: GPL-2.0-only
/* C++ names through the C++ runtime's demangler (libstdc++ is linked). By
 * default the result is shortened as perf shows it (libiberty without
 * DMGL_PARAMS): no return type and no parameter list of the function itself,
 * while template arguments and enclosing functions of local entities stay. */
#include "sym_int.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);
	return n >= k && memcmp(s + n - k, suf, k) == 0;
}

static bool is_operator_at(const char *s, size_t i)
{
	return strncmp(s + i, "operator", 8) == 0 && (i == 0 || s[i - 1] == ':' || s[i - 1] == ' ');
}

/* Drop the function's own parameters, cv/ref qualifiers and return type. */
static void strip_params(char *s)
{
	/* "foo(int) [clone .cold]": work on the name, keep the clone suffix. */
	char *clone = strstr(s, " [clone ");
	char *suffix = NULL;
	if (clone) {
		suffix = strdup(clone);
		*clone = '\0';
	}
	size_t n = strlen(s);
	static const char *const quals[] = { " const", " volatile", " &&", " &", " noexcept",
					     " restrict" };
	for (bool again = true; again;) {
		again = false;
		for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++) {
			if (ends_with(s, n, quals[q])) {
				n -= strlen(quals[q]);
				again = true;
			}
		}
	}
	if (n && s[n - 1] == ')') {
		int depth = 0;
		for (size_t i = n; i-- > 0;) {
			if (s[i] == ')')
				depth++;
			else if (s[i] == '(' && --depth == 0) {
				/* "operator()" is a name: its "()" is not a parameter list. */
				if (i >= 8 && strncmp(s + i - 8, "operator", 8) == 0 && i + 1 < n &&
				    s[i + 1] == ')' && i + 2 == n)
					break;
				n = i;
				break;
			}
		}
	}
	s[n] = '\0';
	/* A return type (template functions) ends at a space outside brackets
	 * that comes before the name. */
	size_t cut = 0;
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		if (depth == 0 && is_operator_at(s, i))
			break;	/* "operator new", "operator unsigned long": part of the name */
		char c = s[i];
		if (c == '(' || c == '<' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == '>' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (c == ' ' && depth == 0)
			cut = i + 1;
	}
	if (cut)
		memmove(s, s + cut, n - cut + 1);
	if (suffix) {
		strcat(s, suffix);	/* shorter than before: fits */
		free(suffix);
	}
}

char *sym_demangle_opts(const char *name, bool params)
{
	/* Itanium ABI names start with _Z; everything else is returned as is by
	 * the caller. */
	if (!name || name[0] != '_' || name[1] != 'Z')
		return NULL;
	int status = 0;
	char *d = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0 || !d) {
		free(d);
		return NULL;
	}
	if (!params)
		strip_params(d);
	return d;
}

char *sym_demangle(const char *name)
{
	return sym_demangle_opts(name, false);
}
