// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf kwork: time spent in hard irqs, softirqs, workqueue items and
 * tasks, measured and aggregated in the kernel.
 *
 * The views (enum kwork_view, rodata `view`):
 *   report   entry -> exit per (class, cpu, id): count, total, max and the
 *            max's start and end times (and a log2 histogram with `hist`);
 *   latency  raise/activate -> entry, the same aggregation;
 *   timehist each exit streamed through the ring buffer `events` with its
 *            entry and raise times;
 *   top      each task's time on each CPU (sched_switch), and the irq and
 *            softirq time by the task they interrupted.
 * irq and softirq state is per CPU (a per-CPU array: a hard irq does not
 * nest, a softirq vector runs once at a time on a CPU); workqueue items are
 * keyed by their work_struct in a hash map. Every loss is counted in
 * `counters` (enum kwork_counter).
 *
 * Two designs over the same bodies, chosen by user space at load time
 * (skel_load_designs): tp_btf programs (typed arguments, 5.5+), and classic
 * tracepoint programs reading the tracepoints' records. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "kwork_data.h"
#include "target_filter.h"

char LICENSE[] SEC("license") = "GPL";

#ifndef E2BIG
#define E2BIG 7
#endif
#ifndef EEXIST
#define EEXIST 17
#endif

const volatile __u32 view = KWORK_VIEW_REPORT;
const volatile __u32 classes = 0;	/* bit 1 << enum kwork_class */
const volatile __u8 cpu_filter = 0;	/* only the CPUs of cpu_mask */
const volatile __u64 cpu_mask[KWORK_MAX_CPUS / 64] = {};
const volatile __u8 want_hist = 0;
const volatile __u8 task_filter = 0;	/* top: only tasks that target_match() (a cgroup) */
/* set by user space (the mmapped .bss) when the window ends: nothing is
 * counted from then on, while the slow detach of the programs goes on */
volatile __u8 stopped = 0;
/* top: the window's bounds in bpf_ktime_get_ns() time (CLOCK_MONOTONIC), set
 * by user space: the start before attaching (the task a CPU runs at its first
 * switch has run since then), the end with `stopped` (kwork_top_flush counts
 * the tasks still running then up to it) */
volatile __u64 window_start = 0;
volatile __u64 window_end = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, struct kwork_key);
	__type(value, struct kwork_value);
} works SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, KWORK_PEND_SLOTS);
	__type(key, __u32);
	__type(value, struct kwork_pend);
} pend SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct kwork_wq_key);
	__type(value, struct kwork_pend);
} wq_pend SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kwork_running);
} running SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, char[KWORK_NAME_LEN]);
} irq_names SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, char[KWORK_COMM_LEN]);
} comms SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, KWORK_CNT__MAX);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __always_inline void count_add(__u32 which, __u64 n)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &which);
	if (c)
		*c += n;	/* per CPU: no other writer */
}

static __always_inline void count(__u32 which)
{
	count_add(which, 1);
}

/* Is this CPU observed (-C)? */
static __always_inline bool cpu_wanted(__u32 cpu)
{
	if (cpu_filter) {
		__u32 word = cpu / 64;

		if (cpu >= KWORK_MAX_CPUS)
			return false;
		/* opaque to the compiler, so that the mask is applied to this
		 * register: 6.1's verifier does not carry the bound over to a
		 * copy of it */
		asm volatile("" : "+r"(word));
		word &= KWORK_MAX_CPUS / 64 - 1;
		if (!((cpu_mask[word] >> (cpu % 64)) & 1))
			return false;
	}
	return true;
}

/* Is this class observed on this CPU? (*cpu: the CPU) */
static __always_inline bool wanted(__u32 class, __u32 *cpu)
{
	if (!((classes >> class) & 1) || stopped)
		return false;
	*cpu = bpf_get_smp_processor_id();
	if (!cpu_wanted(*cpu))
		return false;
	count(KWORK_CNT_EVENTS);
	return true;
}

/* Add one duration [start, end) to key's entry. */
static __always_inline void account(struct kwork_key *k, __u64 start, __u64 end)
{
	__u64 d = end > start ? end - start : 0;
	struct kwork_value *v = bpf_map_lookup_elem(&works, k);

	if (!v) {
		struct kwork_value zero = {};
		bpf_map_update_elem(&works, k, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&works, k);
		if (!v) {
			count(KWORK_CNT_MAP_FULL);
			return;
		}
	}
	if (d > v->max || !v->count) {
		v->max = d;
		v->max_start = start;
		v->max_end = end;
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->total, d);
	if (want_hist) {
		__u32 s = kwork_hist_slot(d);
		/* opaque to the compiler, so that the mask stays and the
		 * verifier sees the index's bound */
		asm volatile("" : "+r"(s));
		s &= KWORK_HIST_SLOTS - 1;
		__sync_fetch_and_add(&v->hist[s], 1);
	}
	count(KWORK_CNT_COUNTED);
}

static __always_inline void emit(__u32 type, __u32 cpu, __u64 id, __u64 raise, __u64 start, __u64 end)
{
	struct kwork_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count(KWORK_CNT_RB_FULL);
		return;
	}
	e->type = type;
	e->cpu = cpu;
	e->id = id;
	e->raise = raise;
	e->start = start;
	e->end = end;
	bpf_ringbuf_submit(e, 0);
	count(KWORK_CNT_COUNTED);
}

/* top: irq and softirq time goes to the interrupted task; with a cgroup,
 * that of the tasks outside it (but the idle task) to KWORK_ID_OTHERS */
static __always_inline __u64 top_task(void)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pid_tgid;

	if (task_filter && tid && !target_match(pid_tgid))
		return KWORK_ID_OTHERS;
	return tid;
}

/* ---- irqs and softirqs: per-CPU slots ---- */

static __always_inline void on_raise(__u32 vec)
{
	__u32 cpu, slot;

	if (view != KWORK_VIEW_LATENCY && view != KWORK_VIEW_TIMEHIST)
		return;
	if (!wanted(KWORK_SOFTIRQ, &cpu))
		return;
	if (vec >= KWORK_NR_SOFTIRQS) {
		count(KWORK_CNT_BAD_VEC);
		return;
	}
	slot = KWORK_PEND_RAISED(vec);
	struct kwork_pend *p = bpf_map_lookup_elem(&pend, &slot);
	if (p && !p->ts)	/* raised already: the delay runs from the first raise */
		p->ts = bpf_ktime_get_ns();
}

/* An entry: class KWORK_IRQ (slot 0, id the irq) or KWORK_SOFTIRQ (id the vector). */
static __always_inline void on_entry(__u32 class, __u64 id)
{
	__u32 cpu, slot;
	__u64 now;

	if (view == KWORK_VIEW_TOP && class == KWORK_IRQ && !((classes >> KWORK_SCHED) & 1))
		return;
	if (!wanted(class, &cpu))
		return;
	if (class == KWORK_SOFTIRQ && id >= KWORK_NR_SOFTIRQS) {
		count(KWORK_CNT_BAD_VEC);
		return;
	}
	now = bpf_ktime_get_ns();
	__u64 raise = 0;
	if (class == KWORK_SOFTIRQ && (view == KWORK_VIEW_LATENCY || view == KWORK_VIEW_TIMEHIST)) {
		slot = KWORK_PEND_RAISED(id & 15);
		struct kwork_pend *r = bpf_map_lookup_elem(&pend, &slot);
		if (r && r->ts) {
			raise = r->ts;
			r->ts = 0;
		} else {
			count(KWORK_CNT_NO_RAISE);
		}
		if (view == KWORK_VIEW_LATENCY) {
			if (raise) {
				struct kwork_key k = { .type = class, .cpu = cpu, .id = id };
				account(&k, raise, now);
			}
			return;
		}
	}
	if (view == KWORK_VIEW_LATENCY)
		return;	/* irqs have no raise */
	slot = class == KWORK_IRQ ? KWORK_PEND_IRQ : KWORK_PEND_SOFTIRQ(id & 15);
	struct kwork_pend *p = bpf_map_lookup_elem(&pend, &slot);
	if (!p)
		return;
	if (p->ts)
		count(KWORK_CNT_OVERWRITE);
	p->ts = now;
	p->raise = raise;
	p->id = id;
}

static __always_inline void on_exit(__u32 class, __u64 id)
{
	__u32 cpu, slot;

	if (view == KWORK_VIEW_LATENCY)
		return;
	if (!wanted(class, &cpu))
		return;
	if (class == KWORK_SOFTIRQ && id >= KWORK_NR_SOFTIRQS) {
		count(KWORK_CNT_BAD_VEC);
		return;
	}
	slot = class == KWORK_IRQ ? KWORK_PEND_IRQ : KWORK_PEND_SOFTIRQ(id & 15);
	struct kwork_pend *p = bpf_map_lookup_elem(&pend, &slot);
	if (!p)
		return;
	if (!p->ts || p->id != id) {
		count(KWORK_CNT_NO_ENTRY);
		return;
	}
	__u64 now = bpf_ktime_get_ns(), start = p->ts, raise = p->raise;
	p->ts = 0;
	if (view == KWORK_VIEW_TIMEHIST) {
		emit(class, cpu, id, raise, start, now);
		return;
	}
	struct kwork_key k = { .type = class, .cpu = cpu, .id = id };
	if (view == KWORK_VIEW_TOP)
		k.id = top_task();
	account(&k, start, now);
}

/* The irq's name (irqaction.name, or the tracepoint's copy), once per irq. */
static __always_inline void irq_name_btf(__u32 irq, struct irqaction *action)
{
	char name[KWORK_NAME_LEN] = {};

	if (view == KWORK_VIEW_TOP || bpf_map_lookup_elem(&irq_names, &irq))
		return;
	bpf_probe_read_kernel_str(name, sizeof(name), BPF_CORE_READ(action, name));
	if (bpf_map_update_elem(&irq_names, &irq, name, BPF_NOEXIST) == -E2BIG)
		count(KWORK_CNT_NAME_FULL);
}

/* ---- workqueue items: by work_struct ---- */

static __always_inline void on_wq_activate(__u64 work)
{
	__u32 cpu;

	if (view != KWORK_VIEW_LATENCY && view != KWORK_VIEW_TIMEHIST)
		return;
	if (!wanted(KWORK_WORKQUEUE, &cpu))
		return;
	struct kwork_wq_key k = { .work = work, .entry = 0 };
	struct kwork_pend p = { .ts = bpf_ktime_get_ns() };
	if (bpf_map_update_elem(&wq_pend, &k, &p, BPF_NOEXIST) == -E2BIG)
		count(KWORK_CNT_PEND_FULL);
}

static __always_inline void on_wq_start(__u64 work, __u64 func)
{
	__u32 cpu;
	__u64 now, raise = 0;

	if (view == KWORK_VIEW_TOP || !wanted(KWORK_WORKQUEUE, &cpu))
		return;
	now = bpf_ktime_get_ns();
	if (view == KWORK_VIEW_LATENCY || view == KWORK_VIEW_TIMEHIST) {
		struct kwork_wq_key rk = { .work = work, .entry = 0 };
		struct kwork_pend *r = bpf_map_lookup_elem(&wq_pend, &rk);
		if (r) {
			raise = r->ts;
			bpf_map_delete_elem(&wq_pend, &rk);
		} else {
			count(KWORK_CNT_NO_RAISE);
		}
		if (view == KWORK_VIEW_LATENCY) {
			if (raise) {
				struct kwork_key k = { .type = KWORK_WORKQUEUE, .cpu = cpu, .id = func };
				account(&k, raise, now);
			}
			return;
		}
	}
	struct kwork_wq_key k = { .work = work, .entry = 1 };
	struct kwork_pend p = { .ts = now, .raise = raise, .func = func, .id = cpu };
	long err = bpf_map_update_elem(&wq_pend, &k, &p, BPF_NOEXIST);
	if (err == -EEXIST) {
		count(KWORK_CNT_OVERWRITE);
		bpf_map_update_elem(&wq_pend, &k, &p, BPF_ANY);
	} else if (err) {
		count(KWORK_CNT_PEND_FULL);
	}
}

static __always_inline void on_wq_end(__u64 work)
{
	__u32 cpu;

	if (view == KWORK_VIEW_TOP || view == KWORK_VIEW_LATENCY || !wanted(KWORK_WORKQUEUE, &cpu))
		return;
	struct kwork_wq_key k = { .work = work, .entry = 1 };
	struct kwork_pend *p = bpf_map_lookup_elem(&wq_pend, &k);
	if (!p) {
		count(KWORK_CNT_NO_ENTRY);
		return;
	}
	__u64 now = bpf_ktime_get_ns(), start = p->ts, raise = p->raise, func = p->func;
	__u32 scpu = (__u32)p->id;
	bpf_map_delete_elem(&wq_pend, &k);
	if (view == KWORK_VIEW_TIMEHIST) {
		emit(KWORK_WORKQUEUE, scpu, func, raise, start, now);
		return;
	}
	struct kwork_key ak = { .type = KWORK_WORKQUEUE, .cpu = scpu, .id = func };
	account(&ak, start, now);
}

/* ---- tasks (top) ---- */

/* top: a slice [from, to) of the current task (tid) on this CPU, and its
 * name, once */
static __always_inline void top_slice(__u32 cpu, __u32 tid, __u64 from, __u64 to, const char *comm)
{
	struct kwork_key k = { .type = KWORK_SCHED, .cpu = cpu, .id = top_task() };

	account(&k, from, to);
	if (k.id != KWORK_ID_OTHERS && !bpf_map_lookup_elem(&comms, &tid)) {
		char name[KWORK_COMM_LEN] = {};
		if (comm)
			bpf_probe_read_kernel_str(name, sizeof(name), comm);
		else
			bpf_get_current_comm(name, sizeof(name));
		if (bpf_map_update_elem(&comms, &tid, name, BPF_NOEXIST) == -E2BIG)
			count(KWORK_CNT_NAME_FULL);
	}
}

static __always_inline void on_switch(__u32 prev_tid, __u32 next_tid, const char *prev_comm)
{
	__u32 cpu = bpf_get_smp_processor_id(), zero = 0;
	__u8 stop = stopped;

	/* not wanted(): after the window's end, a switch still closes the
	 * slice of the task switched out, at the window's end */
	if (view != KWORK_VIEW_TOP || !((classes >> KWORK_SCHED) & 1) || !cpu_wanted(cpu))
		return;
	struct kwork_running *r = bpf_map_lookup_elem(&running, &zero);
	if (!r)
		return;
	__u64 now = bpf_ktime_get_ns(), end = stop ? window_end : now;
	__u64 from = r->ts ? r->ts : window_start;
	if (!stop)
		count(KWORK_CNT_EVENTS);
	/* prev is the current task: the cgroup test applies to it. At the
	 * CPU's first switch it has run since the window's start. */
	if (from && from < end && (!r->ts || r->tid == prev_tid)) {
		top_slice(cpu, prev_tid, from, end, prev_comm);
	} else if (from && from < end) {
		/* the switch out of r->tid went unseen: from then on the CPU
		 * ran tasks unknown up to prev; counted, not guessed */
		count(KWORK_CNT_SWITCH_UNSEEN);
		count_add(KWORK_CNT_UNSEEN_NS, end - from);
	}
	r->ts = stop ? (end > from ? end : from) : now;
	r->tid = next_tid;
}

/* top, at the window's end: run on each CPU by BPF_PROG_TEST_RUN with
 * BPF_F_TEST_RUN_ON_CPU, where "current" is the task that CPU is running:
 * its slice since its switch-in (or the window's start: a CPU that never
 * switched) up to the window's end. User space runs it after setting
 * `stopped` and before the detach: a CPU that switched in between had the
 * slice closed by on_switch, which leaves r->ts at the window's end. */
SEC("raw_tp")
int kwork_top_flush(void *ctx)
{
	__u32 cpu = bpf_get_smp_processor_id(), zero = 0;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (view != KWORK_VIEW_TOP || !((classes >> KWORK_SCHED) & 1) || !cpu_wanted(cpu))
		return 0;
	struct kwork_running *r = bpf_map_lookup_elem(&running, &zero);
	if (!r)
		return 0;
	__u64 from = r->ts ? r->ts : window_start;
	if (!from || !window_end || from >= window_end)
		return 0;
	if (r->ts && r->tid != tid) {
		count(KWORK_CNT_SWITCH_UNSEEN);	/* as in on_switch */
		count_add(KWORK_CNT_UNSEEN_NS, window_end - from);
	} else {
		top_slice(cpu, tid, from, window_end, NULL);
	}
	r->ts = window_end;	/* counted: a second flush adds nothing */
	return 0;
}

/* ---- tp_btf design ---- */

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(btf_irq_entry, int irq, struct irqaction *action)
{
	if ((classes >> KWORK_IRQ) & 1)
		irq_name_btf(irq, action);
	on_entry(KWORK_IRQ, (__u32)irq);
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(btf_irq_exit, int irq, struct irqaction *action, int ret)
{
	on_exit(KWORK_IRQ, (__u32)irq);
	return 0;
}

SEC("tp_btf/softirq_raise")
int BPF_PROG(btf_softirq_raise, unsigned int vec)
{
	on_raise(vec);
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(btf_softirq_entry, unsigned int vec)
{
	on_entry(KWORK_SOFTIRQ, vec);
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(btf_softirq_exit, unsigned int vec)
{
	on_exit(KWORK_SOFTIRQ, vec);
	return 0;
}

SEC("tp_btf/workqueue_activate_work")
int BPF_PROG(btf_wq_activate, struct work_struct *work)
{
	on_wq_activate((__u64)work);
	return 0;
}

SEC("tp_btf/workqueue_execute_start")
int BPF_PROG(btf_wq_start, struct work_struct *work)
{
	on_wq_start((__u64)work, (__u64)BPF_CORE_READ(work, func));
	return 0;
}

SEC("tp_btf/workqueue_execute_end")
int BPF_PROG(btf_wq_end, struct work_struct *work)
{
	on_wq_end((__u64)work);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(btf_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	on_switch(BPF_CORE_READ(prev, pid), BPF_CORE_READ(next, pid), prev->comm);
	return 0;
}

/* ---- classic tracepoint design ---- */

SEC("tracepoint/irq/irq_handler_entry")
int tp_irq_entry(struct trace_event_raw_irq_handler_entry *ctx)
{
	__u32 irq = ctx->irq;

	if (((classes >> KWORK_IRQ) & 1) && view != KWORK_VIEW_TOP && !bpf_map_lookup_elem(&irq_names, &irq)) {
		char name[KWORK_NAME_LEN] = {};
		__u32 loc = ctx->__data_loc_name;
		bpf_probe_read_kernel_str(name, sizeof(name), (char *)ctx + (loc & 0xffff));
		if (bpf_map_update_elem(&irq_names, &irq, name, BPF_NOEXIST) == -E2BIG)
			count(KWORK_CNT_NAME_FULL);
	}
	on_entry(KWORK_IRQ, irq);
	return 0;
}

SEC("tracepoint/irq/irq_handler_exit")
int tp_irq_exit(struct trace_event_raw_irq_handler_exit *ctx)
{
	on_exit(KWORK_IRQ, (__u32)ctx->irq);
	return 0;
}

SEC("tracepoint/irq/softirq_raise")
int tp_softirq_raise(struct trace_event_raw_softirq *ctx)
{
	on_raise(ctx->vec);
	return 0;
}

SEC("tracepoint/irq/softirq_entry")
int tp_softirq_entry(struct trace_event_raw_softirq *ctx)
{
	on_entry(KWORK_SOFTIRQ, ctx->vec);
	return 0;
}

SEC("tracepoint/irq/softirq_exit")
int tp_softirq_exit(struct trace_event_raw_softirq *ctx)
{
	on_exit(KWORK_SOFTIRQ, ctx->vec);
	return 0;
}

SEC("tracepoint/workqueue/workqueue_activate_work")
int tp_wq_activate(struct trace_event_raw_workqueue_activate_work *ctx)
{
	on_wq_activate((__u64)ctx->work);
	return 0;
}

SEC("tracepoint/workqueue/workqueue_execute_start")
int tp_wq_start(struct trace_event_raw_workqueue_execute_start *ctx)
{
	on_wq_start((__u64)ctx->work, (__u64)ctx->function);
	return 0;
}

SEC("tracepoint/workqueue/workqueue_execute_end")
int tp_wq_end(struct trace_event_raw_workqueue_execute_end *ctx)
{
	on_wq_end((__u64)ctx->work);
	return 0;
}

SEC("tracepoint/sched/sched_switch")
int tp_switch(struct trace_event_raw_sched_switch *ctx)
{
	on_switch(ctx->prev_pid, ctx->next_pid, ctx->prev_comm);
	return 0;
}
