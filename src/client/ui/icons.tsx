/** Inline icons: no icon font, no extra request. Decorative, so hidden from assistive tech. */
type IconProps = { size?: number };

const svgProps = (size: number) => ({
  width: size,
  height: size,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
  focusable: false,
});

export const HomeIcon = ({ size = 26 }: IconProps) => (
  <svg {...svgProps(size)}>
    <path d="M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6h-6v6H4a1 1 0 0 1-1-1z" />
  </svg>
);

export const UploadIcon = ({ size = 26 }: IconProps) => (
  <svg {...svgProps(size)}>
    <rect x="3" y="3" width="18" height="18" rx="5" />
    <path d="M12 8v8M8 12h8" />
  </svg>
);

export const BackIcon = ({ size = 24 }: IconProps) => (
  <svg {...svgProps(size)}>
    <path d="M15 18l-6-6 6-6" />
  </svg>
);

export const SearchIcon = ({ size = 18 }: IconProps) => (
  <svg {...svgProps(size)}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </svg>
);

export const ChevronIcon = ({ size = 20 }: IconProps) => (
  <svg {...svgProps(size)}>
    <path d="m9 18 6-6-6-6" />
  </svg>
);

/** A padlock: secret boards (issue 18). */
export const LockIcon = ({ size = 16 }: IconProps) => (
  <svg {...svgProps(size)}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </svg>
);

export const PlusIcon = ({ size = 20 }: IconProps) => (
  <svg {...svgProps(size)}>
    <path d="M12 5v14M5 12h14" />
  </svg>
);

/** A bell: your activity (issue 30). */
export const BellIcon = ({ size = 26 }: IconProps) => (
  <svg {...svgProps(size)}>
    <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
    <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
  </svg>
);

/** A shield: a notice from the moderators, who have no face of their own (issue 30). */
export const ShieldIcon = ({ size = 22 }: IconProps) => (
  <svg {...svgProps(size)}>
    <path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z" />
  </svg>
);

export const ShareIcon = ({ size = 18 }: IconProps) => (
  <svg {...svgProps(size)}>
    <path d="M12 3v13M7 8l5-5 5 5" />
    <path d="M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7" />
  </svg>
);
