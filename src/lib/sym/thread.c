// SPDX-License-Identifier: GPL-2.0-only
/* The machine's threads and processes: comm of each thread (COMM, FORK,
 * EXIT), the process a thread belongs to and its maps' owner, in hashes by
 * tid and by pid. */
#include "machine_int.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- int -> pointer hash (threads by tid, processes by pid) ---- */
static void *ih_get(const struct ihash *h, int key)
{
	if (!h->cap)
		return NULL;
	size_t i = hash_u64((uint64_t)(int64_t)key) & (h->cap - 1);
	while (h->slots[i].used) {
		if (h->slots[i].key == key)
			return h->slots[i].val;
		i = (i + 1) & (h->cap - 1);
	}
	return NULL;
}

static void ih_put(struct ihash *h, int key, void *val);

static void ih_grow(struct ihash *h)
{
	struct ihash nh = { .cap = h->cap ? h->cap * 2 : 256 };
	nh.slots = xcalloc(nh.cap, sizeof(*nh.slots));
	for (size_t i = 0; i < h->cap; i++)
		if (h->slots[i].used)
			ih_put(&nh, h->slots[i].key, h->slots[i].val);
	free(h->slots);
	*h = nh;
}

static void ih_put(struct ihash *h, int key, void *val)
{
	if ((h->count + 1) * 2 > h->cap)
		ih_grow(h);
	size_t i = hash_u64((uint64_t)(int64_t)key) & (h->cap - 1);
	while (h->slots[i].used) {
		if (h->slots[i].key == key) {
			h->slots[i].val = val;
			return;
		}
		i = (i + 1) & (h->cap - 1);
	}
	h->slots[i].used = true;
	h->slots[i].key = key;
	h->slots[i].val = val;
	h->count++;
}

/* ---- threads and processes ---- */
static struct thread *thread_findnew(struct machine *m, int pid, int tid)
{
	struct thread *t = ih_get(&m->threads, tid);
	if (!t) {
		t = xcalloc(1, sizeof(*t));
		t->tid = tid;
		t->pid = pid;
		ih_put(&m->threads, tid, t);
	}
	if (pid >= 0 && pid != t->pid) {	/* the tid was reused */
		t->pid = pid;
		t->comm = NULL;
	}
	return t;
}

struct proc *machine_proc_findnew(struct machine *m, int pid)
{
	struct proc *p = ih_get(&m->procs, pid);
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		ih_put(&m->procs, pid, p);
		m->last_proc = NULL;	/* a tid-based guess may have been cached */
	}
	return p;
}

struct proc *machine_proc_lookup(struct machine *m, int pid, int tid)
{
	struct proc *p = ih_get(&m->procs, pid);
	if (!p) {
		struct thread *t = ih_get(&m->threads, tid);
		if (t && t->pid != pid)
			p = ih_get(&m->procs, t->pid);
		if (!p)
			return NULL;
	}
	m->last_pid = pid;
	m->last_proc = p;
	return p;
}

void machine_comm(struct machine *m, int pid, int tid, const char *comm, bool exec)
{
	struct thread *t = thread_findnew(m, pid, tid);
	t->comm = strtab_intern(m->strs, comm ? comm : "");
	t->dead = false;
	if (exec) {
		/* The kernel reports the exec's COMM before the new image's MMAPs:
		 * the old address space is gone. */
		struct proc *p = ih_get(&m->procs, pid);
		if (p)
			p->nmaps = 0;
	}
}

void machine_comm_first(struct machine *m, int pid, int tid, const char *comm)
{
	struct thread *t = ih_get(&m->threads, tid);
	if (t && t->first_comm)
		return;
	if (!t)
		t = thread_findnew(m, pid, tid);
	t->first_comm = strtab_intern(m->strs, comm ? comm : "");
}

void machine_fork(struct machine *m, int pid, int tid, int ppid, int ptid)
{
	struct thread *parent = ih_get(&m->threads, ptid);
	const char *comm = parent ? parent->comm : NULL;
	if (!comm) {
		struct thread *parent_main = ih_get(&m->threads, ppid);
		comm = parent_main ? parent_main->comm : NULL;
	}
	struct thread *t = thread_findnew(m, pid, tid);
	t->pid = pid;
	t->comm = comm;
	t->dead = false;
	if (pid == ppid)
		return;		/* a new thread shares its process's maps */
	struct proc *parent_proc = ih_get(&m->procs, ppid);
	struct proc *p = machine_proc_findnew(m, pid);
	p->nmaps = 0;
	if (parent_proc && parent_proc != p && parent_proc->nmaps) {
		ARRAY_GROW(p->maps, p->capmaps, parent_proc->nmaps);
		memcpy(p->maps, parent_proc->maps, parent_proc->nmaps * sizeof(*p->maps));
		p->nmaps = parent_proc->nmaps;
	}
}

void machine_exit(struct machine *m, int pid, int tid)
{
	(void)pid;
	/* Samples of an exited thread may still follow: keep its comm and maps. */
	struct thread *t = ih_get(&m->threads, tid);
	if (t)
		t->dead = true;
}

const char *machine_thread_comm(struct machine *m, int tid)
{
	struct thread *t = ih_get(&m->threads, tid);
	if (t && t->comm)
		return t->comm;
	char buf[24];
	snprintf(buf, sizeof(buf), ":%d", tid);
	return strtab_intern(m->strs, buf);
}

const char *machine_comm_of(struct machine *m, int pid, int tid)
{
	struct thread *t = ih_get(&m->threads, tid);
	if (t && t->comm)
		return t->comm;
	struct thread *pt = ih_get(&m->threads, pid);
	if (pt && pt->comm)
		return pt->comm;
	if (t && t->first_comm)
		return t->first_comm;
	if (pt && pt->first_comm)
		return pt->first_comm;
	char buf[24];
	snprintf(buf, sizeof(buf), ":%d", tid);
	return strtab_intern(m->strs, buf);
}
