#include <efi.h>
#include <efilib.h>
EFI_STATUS efi_main(EFI_HANDLE img, EFI_SYSTEM_TABLE *st)
{
	InitializeLib(img, st);
	Print(L"hello efiperf\r\n");
	st->RuntimeServices->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
