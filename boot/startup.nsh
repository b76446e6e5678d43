@echo -off
# efiperf: started by the UEFI shell when the boot manager did not start \EFI\BOOT\@BOOTNAME@.
# Finds the volume that holds \efiperf\efiperf.cfg and runs efiperf from it.
for %v in fs0 fs1 fs2 fs3 fs4 fs5 fs6 fs7 fs8 fs9
  if exist %v:\efiperf\efiperf.cfg then
    %v:
    \EFI\BOOT\@BOOTNAME@
    goto done
  endif
endfor
echo "efiperf: no volume holds \efiperf\efiperf.cfg"
:done
