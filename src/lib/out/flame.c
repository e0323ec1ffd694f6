// SPDX-License-Identifier: GPL-2.0-only
/* Flame graph as one self-contained HTML page.
 *
 * The merged stack tree (hist_tree_walk) is embedded once, as three parallel
 * arrays in pre-order: name index, samples (cumulative) and depth, plus a
 * table of distinct names with one kind letter each (a all, c comm,
 * k kernel, b BPF program, u user, ? unknown). The page rebuilds x offsets
 * and subtree ends from that in one pass and draws on a <canvas>, skipping
 * whole subtrees narrower than half a pixel, so the cost of a redraw is the
 * number of visible frames, not of samples or stacks. No network access, no
 * external script, style or font. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "oa.h"
#include "out/out_int.h"
#include "util.h"

/* Frames embedded at most (see out_flamegraph_html). */
#define FG_MAX_NODES 500000

struct fnode {
	uint32_t name;
	uint32_t depth;
	uint64_t samples;
};

struct fname {
	const char *s;
	char kind;
};

struct fctx {
	struct fnode *nodes;
	size_t n, cap;
	struct fname *names;
	size_t nnames, names_cap;
	struct oa_index name_index;	/* a name by (string, kind) */
	bool by_period;		/* widths are periods (ns), not samples */
	int depth_off;		/* frames of this hist sit under a root frame */
};

static char frame_kind(const struct hist_frame *f, int depth)
{
	if (depth == 0)
		return 'c';
	switch (f->level) {
	case 'k':
		return f->sym && !strncmp(f->sym, "bpf_prog_", 9) ? 'b' : 'k';
	case '.':
		return 'u';
	default:
		return '?';
	}
}

static uint64_t name_hash(const char *s, char kind)
{
	return hash_u64((uintptr_t)s * 31 + (unsigned char)kind);
}

static uint32_t name_index(struct fctx *c, const char *s, char kind)
{
	struct oa_probe p = oa_probe(&c->name_index, name_hash(s, kind));
	for (uint32_t i; (i = oa_next(&c->name_index, &p)) != OA_NONE;)
		if (c->names[i].s == s && c->names[i].kind == kind)
			return i;
	ARRAY_GROW(c->names, c->names_cap, c->nnames + 1);
	c->names[c->nnames].s = s;
	c->names[c->nnames].kind = kind;
	oa_insert(&c->name_index, &p, (uint32_t)c->nnames);
	return (uint32_t)c->nnames++;
}

static void tree_cb(void *ctx, int depth, const struct hist_frame *frame, uint64_t period, uint64_t samples,
		    uint64_t self_samples)
{
	struct fctx *c = ctx;

	(void)self_samples;
	uint64_t v = c->by_period ? period : samples;
	if (!v)
		return;
	ARRAY_GROW(c->nodes, c->cap, c->n + 1);
	struct fnode *n = &c->nodes[c->n++];
	n->name = name_index(c, out_nz(frame->sym), frame_kind(frame, depth));
	n->depth = (uint32_t)(depth + c->depth_off) + 1;	/* 0 is "all" */
	n->samples = v;
}

/* A JavaScript string literal that is safe inside <script>: no "</script>",
 * no "<!--", no line terminators. */
static void js_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char ch = *p;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == '<' || ch == '>' || ch == '&' || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else if (ch == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
			fprintf(f, "\\u%04x", p[2] == 0xa8 ? 0x2028 : 0x2029);
			p += 2;
		} else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static const char page_head[] =
"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";

static const char page_style[] =
"</title>\n<style>\n"
"body{margin:0;font:13px system-ui,sans-serif;background:#fafafa;color:#222}\n"
"#bar{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:8px;align-items:center;"
"padding:6px 10px;background:#eee;border-bottom:1px solid #ccc}\n"
"#ttl{font-weight:600;font-size:15px;margin-right:8px}\n"
"#q{width:220px;padding:2px 4px}\n"
"button{padding:2px 8px;cursor:pointer}\n"
"#match{color:#a0a;font-weight:600}\n"
".lg{display:inline-flex;align-items:center;gap:3px;margin-left:6px;color:#555}\n"
".lg i{display:inline-block;width:11px;height:11px;border:1px solid #888}\n"
"#wrap{padding:4px 10px}\n"
"canvas{display:block;width:100%;cursor:pointer}\n"
"#tip{position:fixed;display:none;pointer-events:none;z-index:3;background:#fffff0;border:1px solid #999;"
"padding:4px 6px;font:12px monospace;white-space:pre;max-width:70vw;overflow:hidden;"
"box-shadow:1px 1px 4px rgba(0,0,0,.25)}\n"
"#info{position:sticky;bottom:0;padding:4px 10px;background:#eee;border-top:1px solid #ccc;"
"font:12px monospace;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-height:15px}\n"
"</style>\n</head>\n<body>\n"
"<div id=\"bar\"><span id=\"ttl\"></span>"
"<button id=\"reset\" title=\"Show the whole profile (Esc)\">Reset zoom</button>"
"<input id=\"q\" type=\"search\" placeholder=\"Search (regular expression)\" aria-label=\"search\">"
"<button id=\"clr\">Clear</button><span id=\"match\"></span>"
"<span class=\"lg\"><i style=\"background:hsl(25,85%,62%)\"></i>user</span>"
"<span class=\"lg\"><i style=\"background:hsl(205,65%,66%)\"></i>kernel</span>"
"<span class=\"lg\"><i style=\"background:hsl(125,55%,55%)\"></i>BPF</span>"
"<span class=\"lg\"><i style=\"background:hsl(40,12%,70%)\"></i>unknown</span>"
"<span class=\"lg\"><i style=\"background:hsl(300,90%,62%)\"></i>match</span>"
"</div>\n<div id=\"wrap\"><canvas id=\"c\"></canvas></div>\n<div id=\"tip\"></div>\n"
"<div id=\"info\">Click a frame to zoom, Esc or Reset to zoom out; type in the search box to highlight."
"</div>\n<script>\n";

static const char page_script[] =
"</script>\n<script>\n"
"(function(){\n"
"'use strict';\n"
"var U=D.unit||'samples';\n"
"var names=D.names,kinds=D.kinds,NI=D.n,V=D.v,DP=D.d,N=NI.length,TOTAL=N?V[0]:0;\n"
"var X=new Float64Array(N),END=new Int32Array(N),nxt=new Float64Array(N),st=[],maxd=0,i;\n"
"for(i=0;i<N;i++){var d=DP[i];if(d>maxd)maxd=d;while(st.length>d)END[st.pop()]=i;\n"
" if(d>0){var p=st[d-1];X[i]=nxt[p];nxt[p]+=V[i];}nxt[i]=X[i];st.push(i);}\n"
"while(st.length)END[st.pop()]=N;\n"
"var RH=18,FONT='12px monospace',cv=document.getElementById('c'),g=cv.getContext('2d');\n"
"var tip=document.getElementById('tip'),info=document.getElementById('info'),"
"qi=document.getElementById('q'),mt=document.getElementById('match');\n"
"document.getElementById('ttl').textContent=D.title;\n"
"var zoom=0,hit=null,rows=[],W=0,H=0,CW=7,colors=new Array(names.length);\n"
"function hs(s){var h=2166136261;for(var k=0;k<s.length;k++){h^=s.charCodeAt(k);h=Math.imul(h,16777619);}"
"return (h>>>0)/4294967296;}\n"
"function col(n){var c=colors[n];if(c)return c;var r=hs(names[n]),k=kinds.charAt(n);\n"
" if(k==='u')c='hsl('+(5+r*45|0)+','+(75+r*20|0)+'%,'+(55+r*12|0)+'%)';\n"
" else if(k==='k')c='hsl('+(190+r*30|0)+',60%,'+(60+r*14|0)+'%)';\n"
" else if(k==='b')c='hsl('+(110+r*35|0)+',55%,'+(50+r*12|0)+'%)';\n"
" else if(k==='c'||k==='a')c='hsl(0,0%,'+(72+r*10|0)+'%)';\n"
" else if(k==='o')c='hsl(270,45%,'+(70+r*8|0)+'%)';\n"
" else c='hsl(40,12%,'+(64+r*12|0)+'%)';\n"
" colors[n]=c;return c;}\n"
"function kindName(k){return {a:'all',c:'command',k:'kernel',b:'BPF program',u:'user',o:'off-CPU time','?':'unknown'}[k]||k;}\n"
"function pc(a,b){return b?(100*a/b).toFixed(2):'0.00';}\n"
"function draw(){\n"
" W=Math.max(200,cv.parentNode.clientWidth);H=(maxd+1)*RH;var r=window.devicePixelRatio||1;\n"
" cv.style.height=H+'px';cv.width=Math.round(W*r);cv.height=Math.round(H*r);\n"
" g.setTransform(r,0,0,r,0,0);g.clearRect(0,0,W,H);g.font=FONT;g.textBaseline='middle';\n"
" CW=g.measureText('MMMMMMMMMM').width/10||7;\n"
" var z0=X[zoom],sc=W/(V[zoom]||1),zd=DP[zoom],k=0;rows=[];for(k=0;k<=maxd;k++)rows.push([]);\n"
" var i=0;\n"
" while(i<N){var x0=(X[i]-z0)*sc,w=V[i]*sc;\n"
"  if(w<0.5||x0>=W||x0+w<=0){i=END[i];continue;}\n"
"  var a=x0<0?0:x0,b=x0+w>W?W:x0+w,y=H-(DP[i]+1)*RH;\n"
"  g.globalAlpha=DP[i]<zd?0.6:1;\n"
"  g.fillStyle=hit&&hit[i]?'hsl(300,90%,62%)':col(NI[i]);\n"
"  g.fillRect(a,y,Math.max(b-a-1,0.5),RH-1);\n"
"  var m=Math.floor((b-a-6)/CW);\n"
"  if(m>=3){var s=names[NI[i]];if(s.length>m)s=s.slice(0,m-2)+'..';g.fillStyle='#000';g.fillText(s,a+3,y+RH/2);}\n"
"  rows[DP[i]].push(a,b,i);i++;}\n"
" g.globalAlpha=1;}\n"
"function at(ev){var rc=cv.getBoundingClientRect(),mx=ev.clientX-rc.left,my=ev.clientY-rc.top;\n"
" var d=Math.floor((H-my)/RH);if(d<0||d>maxd)return -1;var r=rows[d],lo=0,hi=r.length/3-1;\n"
" while(lo<=hi){var md=(lo+hi)>>1;if(mx<r[md*3])hi=md-1;else if(mx>=r[md*3+1])lo=md+1;else return r[md*3+2];}\n"
" return -1;}\n"
"function desc(i){var s=names[NI[i]]+'\\n'+kindName(kinds.charAt(NI[i]))+'\\n'+V[i]+' '+U+', '+pc(V[i],TOTAL)+'% of total';\n"
" if(zoom)s+=', '+pc(V[i],V[zoom])+'% of zoomed';\n"
" var sf=V[i],e=END[i],j=i+1;while(j<e){sf-=V[j];j=END[j];}\n"
" if(sf>0)s+='\\n'+sf+' '+U+' in the frame itself ('+pc(sf,TOTAL)+'%)';return s;}\n"
"cv.addEventListener('mousemove',function(ev){var i=at(ev);if(i<0){tip.style.display='none';return;}\n"
" tip.textContent=desc(i);tip.style.display='block';\n"
" var tx=ev.clientX+14,ty=ev.clientY+14,tw=tip.offsetWidth,th=tip.offsetHeight;\n"
" if(tx+tw>window.innerWidth)tx=Math.max(0,ev.clientX-tw-8);if(ty+th>window.innerHeight)ty=Math.max(0,ev.clientY-th-8);\n"
" tip.style.left=tx+'px';tip.style.top=ty+'px';info.textContent=desc(i).replace(/\\n/g,' | ');});\n"
"cv.addEventListener('mouseleave',function(){tip.style.display='none';});\n"
"cv.addEventListener('click',function(ev){var i=at(ev);if(i<0)return;zoom=i;draw();stats();});\n"
"function reset(){zoom=0;draw();stats();}\n"
"document.getElementById('reset').addEventListener('click',reset);\n"
"document.addEventListener('keydown',function(ev){if(ev.key==='Escape')reset();});\n"
"function esc(s){return s.replace(/[.*+?^${}()|[\\]\\\\]/g,'\\\\$&');}\n"
"function stats(){if(!hit){mt.textContent='';return;}\n"
" var sum=0,i=0;while(i<N){if(hit[i]){sum+=V[i];i=END[i];}else i++;}\n"
" var t='Matched: '+pc(sum,TOTAL)+'% ('+sum+' '+U+')';\n"
" if(zoom){var zs=0,e=END[zoom];i=zoom;while(i<e){if(hit[i]){zs+=V[i];i=END[i];}else i++;}t+=', '+pc(zs,V[zoom])+'% of zoomed';}\n"
" mt.textContent=t;}\n"
"function search(q){if(!q){hit=null;draw();stats();return;}\n"
" var re;try{re=new RegExp(q,'i');}catch(e){re=new RegExp(esc(q),'i');}\n"
" var nh=new Uint8Array(names.length),k;for(k=1;k<names.length;k++)nh[k]=re.test(names[k])?1:0;\n"
" hit=new Uint8Array(N);for(k=1;k<N;k++)hit[k]=nh[NI[k]];draw();stats();}\n"
"var tm=0;qi.addEventListener('input',function(){clearTimeout(tm);tm=setTimeout(function(){search(qi.value);},120);});\n"
"document.getElementById('clr').addEventListener('click',function(){qi.value='';search('');});\n"
"var rt=0;window.addEventListener('resize',function(){clearTimeout(rt);rt=setTimeout(draw,100);});\n"
"draw();\n"
"if(D.omitted_below)info.textContent='Frames with fewer than '+D.omitted_below+' '+U+' are left out (their time is in their parent). '+info.textContent;\n"
"if(document.documentElement.scrollHeight>window.innerHeight)window.scrollTo(0,document.documentElement.scrollHeight);\n"
"window.flamegraph={search:search,zoomTo:function(i){zoom=i;draw();stats();},reset:reset,nodes:N,"
"matched:function(){return mt.textContent;}};\n"
"})();\n"
"</script>\n</body>\n</html>\n";

int out_flamegraph_html(FILE *f, const struct hist *h, const struct out_opts *o)
{
	return out_flamegraph_html_multi(f, &h, NULL, 1, false, o);
}

/* Over 80 lines: the page is written in one sequence (head, the embedded
 * arrays, the script), each array a loop of its own. */
int out_flamegraph_html_multi(FILE *f, const struct hist *const *hs, const char *const *roots, size_t nh,
			      bool by_period, const struct out_opts *o)
{
	struct fctx c = { .by_period = by_period };
	const char *title = o && o->title ? o->title : "Flame Graph";
	uint64_t total = 0;

	oa_init(&c.name_index, 512);
	uint32_t all = name_index(&c, "all", 'a');
	for (size_t k = 0; k < nh; k++) {
		c.depth_off = roots && roots[k] ? 1 : 0;
		if (c.depth_off) {
			uint64_t v = by_period ? hist_total_period(hs[k]) : hist_total_samples(hs[k]);
			if (!v)
				continue;
			ARRAY_GROW(c.nodes, c.cap, c.n + 1);
			c.nodes[c.n++] = (struct fnode){ .name = name_index(&c, roots[k], 'o'), .depth = 1, .samples = v };
		}
		hist_tree_walk(hs[k], tree_cb, &c);
	}
	for (size_t i = 0; i < c.n; i++)
		if (c.nodes[i].depth == 1)
			total += c.nodes[i].samples;
	/* Keep the page light: past FG_MAX_NODES frames, leave out the frames
	 * with fewer than `thr` samples (their time stays in their parent). A
	 * frame never has more samples than its parent, so this cuts whole
	 * subtrees and keeps the tree consistent. */
	uint64_t thr = 1;
	for (size_t kept = c.n; kept > FG_MAX_NODES;) {
		thr *= 2;
		kept = 0;
		for (size_t i = 0; i < c.n; i++)
			kept += c.nodes[i].samples >= thr;
	}

	fputs(page_head, f);
	html_text(f, title);
	fputs(page_style, f);
	fputs("var D={\"title\":", f);
	js_string(f, title);
	fprintf(f, ",\n\"unit\":\"%s\"", by_period ? "ns" : "samples");
	fputs(",\n\"names\":[", f);
	for (size_t i = 0; i < c.nnames; i++) {
		if (i)
			fputc(',', f);
		js_string(f, c.names[i].s);
		if (i % 64 == 63)
			fputc('\n', f);
	}
	fputs("],\n\"kinds\":\"", f);
	for (size_t i = 0; i < c.nnames; i++)
		fputc(c.names[i].kind, f);
	/* pre-order arrays; node 0 is "all" */
	fprintf(f, "\",\n\"omitted_below\":%llu", (unsigned long long)(thr > 1 ? thr : 0));
	fprintf(f, ",\n\"n\":[%u", all);
	for (size_t i = 0, k = 0; i < c.n; i++)
		if (c.nodes[i].samples >= thr)
			fprintf(f, ",%u%s", c.nodes[i].name, ++k % 256 == 0 ? "\n" : "");
	fprintf(f, "],\n\"v\":[%llu", (unsigned long long)total);
	for (size_t i = 0, k = 0; i < c.n; i++)
		if (c.nodes[i].samples >= thr)
			fprintf(f, ",%llu%s", (unsigned long long)c.nodes[i].samples, ++k % 256 == 0 ? "\n" : "");
	fputs("],\n\"d\":[0", f);
	for (size_t i = 0, k = 0; i < c.n; i++)
		if (c.nodes[i].samples >= thr)
			fprintf(f, ",%u%s", c.nodes[i].depth, ++k % 256 == 0 ? "\n" : "");
	fputs("]};\n", f);
	fputs(page_script, f);

	free(c.nodes);
	free(c.names);
	oa_free(&c.name_index);
	if (ferror(f))
		return -1;	/* the caller names the file (out/ofile.h) */
	return 0;
}
