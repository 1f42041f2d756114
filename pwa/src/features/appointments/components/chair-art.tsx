/** The banner's dental chair under its lamp. Decorative: hidden from assistive technology. */
export function ChairArt() {
  return (
    <svg className="chair-art" viewBox="0 0 360 280" aria-hidden="true" focusable="false">
      <ellipse className="chair-art__floor" cx="185" cy="262" rx="150" ry="12" />
      <path className="chair-art__light" d="M188 58h48l44 110H146z" />
      <path className="chair-art__lamp-arm" d="M344 4v26q0 12-12 12h-86" />
      <ellipse className="chair-art__frame" cx="212" cy="48" rx="34" ry="13" />
      <ellipse className="chair-art__bulb" cx="212" cy="54" rx="22" ry="6" />
      <rect className="chair-art__frame" x="112" y="242" width="150" height="14" rx="7" />
      <rect className="chair-art__metal" x="172" y="182" width="28" height="62" rx="6" />
      <rect
        className="chair-art__cushion"
        x="246"
        y="164"
        width="92"
        height="26"
        rx="13"
        transform="rotate(38 252 177)"
      />
      <rect
        className="chair-art__cushion"
        x="12"
        y="150"
        width="116"
        height="28"
        rx="14"
        transform="rotate(62 118 164)"
      />
      <rect className="chair-art__headrest" x="34" y="50" width="54" height="24" rx="12" transform="rotate(62 61 62)" />
      <rect className="chair-art__cushion" x="100" y="156" width="168" height="30" rx="15" />
      <rect className="chair-art__frame" x="134" y="142" width="8" height="16" />
      <rect className="chair-art__metal" x="118" y="130" width="78" height="14" rx="7" />
    </svg>
  );
}
