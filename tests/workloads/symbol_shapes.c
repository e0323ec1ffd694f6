// SPDX-License-Identifier: GPL-2.0-only
/* Symbols of unusual shapes, each hot in turn: a sized function with a
 * named label inside it (the label must not take the function's samples),
 * code reached by a label with no type or size (perf names it), a function
 * symbol of size 0, and a plain C function. Built as PIE and non-PIE,
 * stripped or not, by test_report_symbols. Usage: symbol_shapes [N] */
#include <stdlib.h>

volatile unsigned long sink;
void sized_with_label(unsigned long n);
void notype_code(unsigned long n);
void zero_size_fn(unsigned long n);

__asm__(".text\n"
	".globl sized_with_label\n.type sized_with_label,@function\nsized_with_label:\n"
	" push %rbp\n mov %rsp,%rbp\n xor %eax,%eax\n"
	".globl inner_label\ninner_label:\n"
	" add %rax,sink(%rip)\n inc %rax\n cmp %rdi,%rax\n jb inner_label\n pop %rbp\n ret\n"
	".size sized_with_label,.-sized_with_label\n"
	".globl notype_code\nnotype_code:\n"
	" push %rbp\n mov %rsp,%rbp\n xor %eax,%eax\n"
	"1: xor %rax,sink(%rip)\n inc %rax\n cmp %rdi,%rax\n jb 1b\n pop %rbp\n ret\n"
	".globl zero_size_fn\n.type zero_size_fn,@function\nzero_size_fn:\n"
	" push %rbp\n mov %rsp,%rbp\n xor %eax,%eax\n"
	"2: sub %rax,sink(%rip)\n inc %rax\n cmp %rdi,%rax\n jb 2b\n pop %rbp\n ret\n");

__attribute__((noinline)) static void c_function(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000UL;
	sized_with_label(n);
	notype_code(n);
	zero_size_fn(n);
	c_function(n);
	return 0;
}
