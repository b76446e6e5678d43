/* Fixture source of stack_budget.py's test: only the lines the .ci labels point at matter. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	helper();
	BS->Stall(10);
}
static void helper(void) { memset(buf, 0, sizeof(buf)); }
