/* Fixture: every way stack_budget.py must fail. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	ping(3);
	mystery(arg);
	vendor_blob();
}
static void ping(int n) { pong(n); }
static void pong(int n) { if (n) ping(n - 1); }
static void run_one(void *p) { char big[30000]; use(big); }
