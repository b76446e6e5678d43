/* Fixture: a window CPU's job calls the window kernel through window_spec.kernel. */
static uint64_t k1(void *arg) { return 0; }
static void run_one(void *p)
{
	struct cpu_job *j = p;
	c->ret = j->s->kernel(c->arg);
}
void go(void) { struct window_spec spec = { .kernel = k1, .ncpus = 1 }; }
