/*
 * A stand-in for Windows' bcryptprimitives.dll, for running the Windows engine under Wine 8
 * in tests only (tools/wine/setup.sh puts it in the test Wine prefix's system32).
 *
 * Rust's standard library imports ProcessPrng from bcryptprimitives.dll, which Windows 10
 * and later have and Wine 8 lacks. This ProcessPrng fills the buffer from
 * SystemFunction036 (RtlGenRandom, advapi32), which Wine has. It must never go into the
 * Gomocup package: Windows has the real DLL.
 *
 * Build: x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
