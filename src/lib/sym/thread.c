// SPDX-License-Identifier: GPL-2.0-only
/* The machine's threads and processes: comm of each thread (COMM, FORK,
 * EXIT), the process a thread belongs to and its maps' owner, in integer
 * maps (oa.h) by tid and by pid. */
#include "machine_int.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- threads and processes ---- */
static struct thread *thread_findnew(struct machine *m, int pid, int tid)
{
	bool added;
	struct thread *t = oa_imap_findnew(&m->threads, tid, sizeof(*t), &added);
	if (added) {
		t->tid = tid;
		t->pid = pid;
	}
	if (pid >= 0 && pid != t->pid) {	/* the tid was reused */
		t->pid = pid;
		t->comm = NULL;
	}
	return t;
}

struct proc *machine_proc_findnew(struct machine *m, int pid)
{
	bool added;
	struct proc *p = oa_imap_findnew(&m->procs, pid, sizeof(*p), &added);
	if (added) {
		p->pid = pid;
		m->last_proc = NULL;	/* a tid-based guess may have been cached */
	}
	return p;
}

struct proc *machine_proc_lookup(struct machine *m, int pid, int tid)
{
	struct proc *p = oa_imap_get(&m->procs, pid);
	if (!p) {
		struct thread *t = oa_imap_get(&m->threads, tid);
		if (t && t->pid != pid)
			p = oa_imap_get(&m->procs, t->pid);
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
		struct proc *p = oa_imap_get(&m->procs, pid);
		if (p)
			p->nmaps = 0;
	}
}

void machine_comm_first(struct machine *m, int pid, int tid, const char *comm)
{
	struct thread *t = oa_imap_get(&m->threads, tid);
	if (t && t->first_comm)
		return;
	if (!t)
		t = thread_findnew(m, pid, tid);
	t->first_comm = strtab_intern(m->strs, comm ? comm : "");
}

void machine_fork(struct machine *m, int pid, int tid, int ppid, int ptid)
{
	struct thread *parent = oa_imap_get(&m->threads, ptid);
	const char *comm = parent ? parent->comm : NULL;
	if (!comm) {
		struct thread *parent_main = oa_imap_get(&m->threads, ppid);
		comm = parent_main ? parent_main->comm : NULL;
	}
	struct thread *t = thread_findnew(m, pid, tid);
	t->pid = pid;
	t->comm = comm;
	t->dead = false;
	if (pid == ppid)
		return;		/* a new thread shares its process's maps */
	struct proc *parent_proc = oa_imap_get(&m->procs, ppid);
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
	struct thread *t = oa_imap_get(&m->threads, tid);
	if (t)
		t->dead = true;
}

const char *machine_thread_comm(struct machine *m, int tid)
{
	struct thread *t = oa_imap_get(&m->threads, tid);
	if (t && t->comm)
		return t->comm;
	char buf[24];
	snprintf(buf, sizeof(buf), ":%d", tid);
	return strtab_intern(m->strs, buf);
}

const char *machine_comm_of(struct machine *m, int pid, int tid)
{
	struct thread *t = oa_imap_get(&m->threads, tid);
	if (t && t->comm)
		return t->comm;
	struct thread *pt = oa_imap_get(&m->threads, pid);
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
