#!/usr/bin/env bash
# make-media.sh: regenerates every file in public/media/ from scratch.
#
# Everything is synthetic. Illustrations are SVG written by this script,
# rasterised with rsvg-convert and encoded with cwebp (or ImageMagick if cwebp
# is missing). The videos are SVG frames (hero) or a static card plus ffmpeg
# drawtext (testimonial). The script uses no network, no stock assets, no
# people.
#
# Requirements (Debian/Ubuntu):
#   apt-get install -y ffmpeg imagemagick librsvg2-bin webp fonts-dejavu-core
#
# Usage: scripts/make-media.sh        (run from anywhere; writes ../public/media)
# Then `npm run images` renders the AVIF/WebP renditions of the sources (ADR 014).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/public/media"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/make-media.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"

FONT_DIR=/usr/share/fonts/truetype/dejavu
FONT="$FONT_DIR/DejaVuSans.ttf"
FONT_BOLD="$FONT_DIR/DejaVuSans-Bold.ttf"
JOBS="$(nproc 2>/dev/null || echo 2)"

die() { echo "make-media: $*" >&2; exit 1; }
for tool in ffmpeg ffprobe rsvg-convert awk; do
  command -v "$tool" >/dev/null ||
    die "missing '$tool' (apt-get install -y ffmpeg imagemagick librsvg2-bin webp fonts-dejavu-core)"
done
[ -f "$FONT" ] && [ -f "$FONT_BOLD" ] || die "DejaVu fonts not found in $FONT_DIR (apt-get install -y fonts-dejavu-core)"
if command -v magick >/dev/null; then IM=(magick); elif command -v convert >/dev/null; then IM=(convert); else
  die "missing ImageMagick (apt-get install -y imagemagick)"; fi

# ---------------------------------------------------------------- helpers ---
svg2png() { # svg w h png
  rsvg-convert -w "$2" -h "$3" -b none "$1" -o "$4"
}
png2webp() { # png webp quality
  if command -v cwebp >/dev/null; then
    cwebp -quiet -q "$3" -m 6 -sharp_yuv -metadata none "$1" -o "$2"
  else
    "${IM[@]}" "$1" -strip -quality "$3" -define webp:method=6 "$2"
  fi
}
svg2webp() { # name w h quality   (reads $TMP/name.svg, writes $OUT/name.webp)
  svg2png "$TMP/$1.svg" "$2" "$3" "$TMP/$1.png"
  png2webp "$TMP/$1.png" "$OUT/$1.webp" "$4"
}

# Palette
TEAL=#0f766e; TEAL2=#14b8a6; NAVY=#0f172a; ROSE=#dc2626; SLATE=#64748b

# Tooth outline (two roots), drawn in a 100x100 box.
TOOTH='M30,12 C18,12 12,22 12,34 C12,48 18,56 22,66 C25,76 26,92 33,92 C40,92 40,74 50,74 C60,74 60,92 67,92 C74,92 75,76 78,66 C82,56 88,48 88,34 C88,22 82,12 70,12 C62,12 58,17 50,17 C42,17 38,12 30,12 Z'

# Soft blob: id colour opacity  -> radialGradient with a gaussian-like falloff
blobgrad() {
  echo "<radialGradient id=\"$1\"><stop offset=\"0\" stop-color=\"$2\" stop-opacity=\"$3\"/><stop offset=\".45\" stop-color=\"$2\" stop-opacity=\"$(awk "BEGIN{printf \"%.3f\", $3*0.55}")\"/><stop offset=\"1\" stop-color=\"$2\" stop-opacity=\"0\"/></radialGradient>"
}

# Drop-shadow filter used for cards.
SHADOW='<filter id="sh" x="-20%" y="-20%" width="140%" height="150%"><feGaussianBlur in="SourceAlpha" stdDeviation="8"/><feOffset dy="6"/><feComponentTransfer><feFuncA type="linear" slope=".14"/></feComponentTransfer><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>'

# Dental implant (crown + abutment + threaded fixture). Origin = crown base,
# crown top at y=-100, apex at y=200. Args: crown-fill crown-stroke thread-colour id-prefix
implant() {
  local cf=$1 cs=$2 th=$3 p=$4
  cat <<EOF
<defs><linearGradient id="${p}m" x1="0" x2="1"><stop offset="0" stop-color="#64748b"/><stop offset=".3" stop-color="#e2e8f0"/><stop offset=".55" stop-color="#cbd5e1"/><stop offset="1" stop-color="#475569"/></linearGradient>
<linearGradient id="${p}c" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="$cf"/></linearGradient></defs>
<path d="M-20,-2 L20,-2 L25,34 L-25,34 Z" fill="url(#${p}m)"/>
<path d="M-31,32 L31,32 L31,150 C31,178 18,196 0,200 C-18,196 -31,178 -31,150 Z" fill="url(#${p}m)"/>
$(awk -v th="$th" 'BEGIN{for(y=44;y<=180;y+=13){w=(y<=150)?31:31-(y-150)*0.55; w2=((y+7)<=150)?31:31-(y+7-150)*0.55;
  printf "<path d=\"M%.1f,%.1f L%.1f,%.1f\" stroke=\"%s\" stroke-width=\"3.4\" stroke-linecap=\"round\"/>\n", -w-5, y, w2+5, y+7, th}}')
<path d="M-56,0 C-62,-40 -52,-94 -26,-100 C-11,-103 -6,-93 0,-93 C6,-93 11,-103 26,-100 C52,-94 62,-40 56,0 C36,11 -36,11 -56,0 Z" fill="url(#${p}c)" stroke="$cs" stroke-width="3" stroke-linejoin="round"/>
<path d="M-34,-78 C-30,-86 -22,-89 -14,-87" stroke="#ffffff" stroke-width="5" stroke-linecap="round" fill="none" opacity=".9"/>
EOF
}

# Smile (lips + upper teeth). Local origin = centre of the mouth, width +-180.
# Args: left-teeth-fill right-teeth-fill id-prefix lip-fill lip-stroke
smile() {
  local lf=$1 rf=$2 p=$3 lip=${4:-#fecaca} lips=${5:-$ROSE}
  cat <<EOF
<defs><clipPath id="${p}mouth"><path d="M-165,-3 C-100,-36 100,-36 165,-3 C100,58 -100,58 -165,-3 Z"/></clipPath></defs>
<path d="M-180,-4 C-130,-62 -44,-66 0,-48 C44,-66 130,-62 180,-4 C128,92 -128,92 -180,-4 Z" fill="$lip" stroke="$lips" stroke-opacity=".55" stroke-width="2.5" stroke-linejoin="round"/>
<path d="M-165,-3 C-100,-36 100,-36 165,-3 C100,58 -100,58 -165,-3 Z" fill="#5b1a24"/>
<g clip-path="url(#${p}mouth)">
<path d="M-165,-3 C-100,-36 100,-36 165,-3 L165,-40 L-165,-40 Z" fill="#f9a8b4"/>
$(awk -v lf="$lf" -v rf="$rf" 'BEGIN{split("34 28 26 22 20 20",w," "); split("32 27 22 16 10 4",b," ");
  for(s=-1;s<=1;s+=2){x=0; for(i=1;i<=6;i++){x0=(s>0)?x+1:-x-w[i]+1; fill=(s>0)?rf:lf;
    printf "<rect x=\"%.1f\" y=\"-45\" width=\"%.1f\" height=\"%.1f\" rx=\"8\" fill=\"%s\" stroke=\"#cbd5e1\" stroke-width=\"1\"/>\n", x0, w[i]-2, b[i]+45, fill; x+=w[i]}}}')
<path d="M-165,-3 C-100,-36 100,-36 165,-3" fill="none" stroke="#f472b6" stroke-opacity=".35" stroke-width="6"/>
</g>
<path d="M-180,-4 C-130,-62 -44,-66 0,-48 C44,-66 130,-62 180,-4" fill="none" stroke="$lips" stroke-opacity=".55" stroke-width="2.5"/>
EOF
}

# Face profile (facing right) as line art.
PROFILE='M372,22 C410,30 432,46 438,68 C446,95 449,130 450,158 C451,168 447,174 444,180 C458,203 480,226 500,242 C506,247 503,256 495,258 C486,260 476,258 468,262 C471,270 479,278 477,286 C475,292 469,294 467,297 C471,301 479,305 475,312 C471,319 461,320 459,326 C463,333 473,336 470,344 C468,354 462,360 452,362 C432,366 414,368 402,372 C394,392 392,420 394,450'
profile() { # stroke accent
  cat <<EOF
<path d="M372,22 C300,8 232,60 236,160 C238,230 262,270 286,304 C296,330 300,380 302,450" fill="none" stroke="$1" stroke-opacity=".3" stroke-width="3" stroke-linecap="round"/>
<path d="$PROFILE" fill="none" stroke="$1" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>
<path d="M396,176 Q418,164 442,171" fill="none" stroke="$1" stroke-width="3.5" stroke-linecap="round"/>
<path d="M404,197 Q418,189 432,197 Q418,201 404,197 Z" fill="$1" fill-opacity=".85"/>
<path d="M478,251 Q486,246 490,252" fill="none" stroke="$1" stroke-width="3" stroke-linecap="round"/>
<path d="M318,200 C294,198 292,254 316,260 C326,260 328,246 322,238" fill="none" stroke="$1" stroke-width="3" stroke-linecap="round"/>
<path d="M514,208 L460,376" stroke="$2" stroke-width="2.5" stroke-dasharray="7 6" stroke-linecap="round"/>
EOF
}

brand() { # x y colour  -> small tooth mark + wordmark
  cat <<EOF
<g transform="translate($1,$2)"><path d="$TOOTH" transform="scale(.26)" fill="$3"/>
<text x="34" y="19" font-family="DejaVu Sans" font-weight="bold" font-size="13" letter-spacing="2.6" fill="$3">RÍO CLÍNICA DENTAL</text></g>
EOF
}

# ============================================================ hero video ===
echo "· hero frames"
HERO_FPS=24; HERO_SECONDS=7; HERO_N=$((HERO_FPS * HERO_SECONDS))
mkdir -p "$TMP/hero"
DEFS_HERO="$(blobgrad gA $TEAL2 .34)$(blobgrad gB $TEAL .24)$(blobgrad gC $NAVY .08)$(blobgrad gD $ROSE .09)$(blobgrad gE '#5eead4' .30)"
awk -v N="$HERO_N" -v dir="$TMP/hero" -v defs="$DEFS_HERO" 'BEGIN{
  pi=3.14159265358979; srand(20250101)
  # blobs: id base-x base-y amp-x amp-y radius phase speed
  nb=split("gA 150 110 45 28 250 0 1|gB 500 265 -40 30 230 .25 1|gC 580 40 30 22 280 .5 1|gD 330 330 55 16 170 .7 1|gE 390 120 50 -32 200 .4 1|gA 640 200 -30 40 180 .85 1", B, "|")
  np=40
  for(j=1;j<=np;j++){px[j]=rand()*640; py[j]=rand()*360; pr[j]=6+rand()*16; pph[j]=rand(); pd[j]=(rand()<.5)?-1:1;
    ps[j]=1.1+rand()*2.2; pt[j]=(rand()<.45)?1:0; po[j]=.16+rand()*.26; tph[j]=rand(); tk[j]=(rand()<.5)?1:2}
  for(i=0;i<N;i++){
    t=i/N; f=sprintf("%s/f%04d.svg", dir, i)
    print "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"360\" viewBox=\"0 0 640 360\"><defs>" defs > f
    print "<linearGradient id=\"bg\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"1\"><stop offset=\"0\" stop-color=\"#ffffff\"/><stop offset=\"1\" stop-color=\"#ecfbf7\"/></linearGradient>" > f
    print "<radialGradient id=\"pw\"><stop offset=\"0\" stop-color=\"#fff\"/><stop offset=\".45\" stop-color=\"#fff\" stop-opacity=\".75\"/><stop offset=\"1\" stop-color=\"#fff\" stop-opacity=\"0\"/></radialGradient></defs>" > f
    print "<rect width=\"640\" height=\"360\" fill=\"url(#bg)\"/>" > f
    for(k=1;k<=nb;k++){split(B[k],b," "); a=2*pi*(t*b[8]+b[7]);
      printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"url(#%s)\"/>\n", b[2]+b[4]*sin(a), b[3]+b[5]*sin(a+pi/3), b[6]*(1+.06*sin(a+1)), b[1] > f}
    split("246 16 700 .17 0|268 20 560 .13 .3|292 11 820 .10 .6|84 9 900 .08 .15", W, "|")
    for(k=1;k<=4;k++){split(W[k],w," "); d="";
      for(x=-8;x<=648;x+=8){y=w[1]+w[2]*sin(2*pi*(x/w[3]-t+w[5]))+4*sin(2*pi*(x/250+2*t)); d=d sprintf("%s%.1f,%.1f ", (x==-8)?"M":"L", x, y)}
      printf "<path d=\"%s\" fill=\"none\" stroke=\"#0f766e\" stroke-opacity=\"%s\" stroke-width=\"1.6\"/>\n", d, w[4] > f}
    for(j=1;j<=np;j++){a=2*pi*(pd[j]*t+pph[j]); x=px[j]+pr[j]*cos(a); y=py[j]+pr[j]*sin(a)-6*sin(2*pi*t);
      tw=.55+.45*sin(2*pi*(tk[j]*t+tph[j]))
      if(pt[j]) printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"url(#pw)\" opacity=\"%.2f\"/>\n", x, y, ps[j]*3.2, .55+.45*tw > f
      else printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#0f766e\" opacity=\"%.2f\"/>\n", x, y, ps[j], po[j]*tw > f}
    print "</svg>" > f; close(f)
  }}'
ls "$TMP"/hero/*.svg | xargs -P "$JOBS" -I{} sh -c 'rsvg-convert -w 640 -h 360 "$1" -o "${1%.svg}.png"' _ {}

echo "· hero.mp4 / hero.webm / posters"
ffmpeg -v error -y -framerate "$HERO_FPS" -i "$TMP/hero/f%04d.png" -an \
  -c:v libx264 -preset slow -crf 24 -tune animation -profile:v high -pix_fmt yuv420p \
  -g 48 -movflags +faststart "$OUT/hero.mp4"
ffmpeg -v error -y -framerate "$HERO_FPS" -i "$TMP/hero/f%04d.png" -an \
  -c:v libvpx-vp9 -b:v 0 -crf 34 -row-mt 1 -deadline good -cpu-used 2 -pix_fmt yuv420p \
  -g 48 "$OUT/hero.webm"
svg2png "$TMP/hero/f0000.svg" 1280 720 "$TMP/hero-poster.png"
png2webp "$TMP/hero-poster.png" "$OUT/hero-poster.webp" 80
svg2png "$TMP/hero/f0000.svg" 640 360 "$TMP/hero-poster-640.png"
png2webp "$TMP/hero-poster-640.png" "$OUT/hero-poster-640.webp" 82

# ===================================================== testimonial video ===
echo "· testimonio"
TBG_DEFS="$(blobgrad tA $TEAL2 .35)$(blobgrad tB $ROSE .10)$(blobgrad tC $TEAL .22)"
cat > "$TMP/tbg.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">
<defs>$TBG_DEFS
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f8fafc"/><stop offset="1" stop-color="#e6f7f4"/></linearGradient>
<pattern id="dots" width="18" height="18" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1.1" fill="#0f766e" fill-opacity=".12"/></pattern></defs>
<rect width="640" height="360" fill="url(#bg)"/>
<rect width="640" height="360" fill="url(#dots)"/>
<circle cx="80" cy="40" r="230" fill="url(#tA)"/><circle cx="600" cy="340" r="200" fill="url(#tB)"/><circle cx="620" cy="60" r="160" fill="url(#tC)"/>
$(brand 30 18 $NAVY)
</svg>
EOF
cat > "$TMP/tcard.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">
<defs>$SHADOW<clipPath id="cardclip"><rect x="60" y="66" width="520" height="232" rx="20"/></clipPath></defs>
<g filter="url(#sh)"><rect x="60" y="66" width="520" height="232" rx="20" fill="#ffffff"/></g>
<rect x="60" y="66" width="520" height="232" rx="20" fill="none" stroke="#e2e8f0"/>
<rect x="60" y="66" width="8" height="232" fill="$TEAL" clip-path="url(#cardclip)"/>
<text x="552" y="150" font-family="DejaVu Serif" font-weight="bold" font-size="84" fill="$TEAL2" fill-opacity=".18" text-anchor="end">”</text>
<text x="120" y="276" font-family="DejaVu Sans" font-size="15" fill="$ROSE" letter-spacing="3">★★★★★</text>
<g transform="translate(520,246)"><circle r="20" fill="#f0fdfa" stroke="$TEAL2" stroke-width="1.5"/><path d="$TOOTH" transform="translate(-12,-12.5) scale(.24)" fill="$TEAL"/></g>
</svg>
EOF
cat > "$TMP/tbar.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="640" height="4"><defs><linearGradient id="g"><stop offset="0" stop-color="$TEAL"/><stop offset=".85" stop-color="$TEAL2"/><stop offset="1" stop-color="$ROSE"/></linearGradient></defs><rect width="640" height="4" fill="url(#g)"/></svg>
EOF
svg2png "$TMP/tbg.svg" 640 360 "$TMP/tbg.png"
svg2png "$TMP/tcard.svg" 640 360 "$TMP/tcard.png"
svg2png "$TMP/tbar.svg" 640 4 "$TMP/tbar.png"

# Three text "cards": start end eyebrow headline line
TSEG=(
  "0.5|3.7|TESTIMONIO DE PACIENTE|“Volví a sonreír sin miedo”|Paciente de implantes dentales · 52 años"
  "3.7|6.9|IMPLANTES DENTALES|Planificación digital con IA|Cirugía guiada y corona de cerámica"
  "6.9|99|AGENDA TU EVALUACIÓN|Río Clínica Dental|Providencia, Santiago · Estética facial"
)
T_SECONDS=10
{
  echo "[1:v]format=rgba,fade=t=in:st=0:d=0.5:alpha=1[card];"
  echo "[0:v][card]overlay=x=0:y='18*pow(max(0,1-t/0.6),2)':eval=frame[c0];"
  echo "[c0][2:v]overlay=x='-w+W*t/$T_SECONDS':y=H-4:eval=frame[c1];"
  echo -n "[c1]"
  i=0
  for seg in "${TSEG[@]}"; do
    IFS='|' read -r a b eyebrow head sub <<<"$seg"
    printf '%s' "$eyebrow" > "$TMP/t${i}e.txt"; printf '%s' "$head" > "$TMP/t${i}h.txt"; printf '%s' "$sub" > "$TMP/t${i}s.txt"
    alpha="alpha='clip(min((t-$a)/0.35,($b-t)/0.35),0,1)'"
    slide="max(0,1-(t-$a)/0.45)"
    echo "drawtext=fontfile=$FONT_BOLD:expansion=none:textfile=$TMP/t${i}e.txt:fontsize=13:fontcolor=0x0f766e:x=120:y='96+8*$slide':$alpha,"
    echo "drawtext=fontfile=$FONT_BOLD:expansion=none:textfile=$TMP/t${i}h.txt:fontsize=26:fontcolor=0x0f172a:x=120:y='128+12*$slide':$alpha,"
    echo "drawtext=fontfile=$FONT:expansion=none:textfile=$TMP/t${i}s.txt:fontsize=16:fontcolor=0x475569:x=120:y='186+14*$slide':$alpha,"
    i=$((i + 1))
  done
  echo "fade=t=out:st=9.55:d=0.45:color=0xf8fafc,format=yuv420p[v]"
} > "$TMP/tfilter.txt"
ffmpeg -v error -y \
  -loop 1 -framerate 30 -t "$T_SECONDS" -i "$TMP/tbg.png" \
  -loop 1 -framerate 30 -t "$T_SECONDS" -i "$TMP/tcard.png" \
  -loop 1 -framerate 30 -t "$T_SECONDS" -i "$TMP/tbar.png" \
  -filter_complex_script "$TMP/tfilter.txt" -map "[v]" -an \
  -c:v libx264 -preset slow -crf 23 -tune stillimage -profile:v high -pix_fmt yuv420p \
  -g 60 -movflags +faststart "$OUT/testimonio.mp4"

# Poster = the first card fully shown, rendered at 960x540 from vectors.
cat > "$TMP/testimonio-poster.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="960" height="540" viewBox="0 0 640 360">
$(sed -e '1d' -e '$d' "$TMP/tbg.svg")
$(sed -e '1d' -e '$d' "$TMP/tcard.svg" | sed 's/id="sh"/id="sh2"/; s/url(#sh)/url(#sh2)/; s/cardclip/cardclip2/g')
<text x="120" y="108" font-family="DejaVu Sans" font-weight="bold" font-size="13" fill="$TEAL">TESTIMONIO DE PACIENTE</text>
<text x="120" y="152" font-family="DejaVu Sans" font-weight="bold" font-size="26" fill="$NAVY">“Volví a sonreír sin miedo”</text>
<text x="120" y="201" font-family="DejaVu Sans" font-size="16" fill="#475569">Paciente de implantes dentales · 52 años</text>
<rect x="0" y="356" width="64" height="4" fill="$TEAL"/>
</svg>
EOF
svg2webp testimonio-poster 960 540 80

# ============================================================== articles ===
echo "· articles"
ART_BG='<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#eefaf7"/></linearGradient>'
chip() { # x y width text dot-colour
  cat <<EOF
<g filter="url(#sh)"><rect x="$1" y="$2" width="$3" height="36" rx="18" fill="#ffffff"/></g>
<circle cx="$(($1 + 20))" cy="$(($2 + 18))" r="5" fill="$5"/>
<text x="$(($1 + 34))" y="$(($2 + 23))" font-family="DejaVu Sans" font-weight="bold" font-size="14" fill="$NAVY">$4</text>
EOF
}

# 1. AI diagnosis: neural network over a tooth outline
cat > "$TMP/articulo-1.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450" viewBox="0 0 800 450"><defs>$ART_BG $SHADOW
$(blobgrad b1 $TEAL2 .30)$(blobgrad b2 $ROSE .08)
<linearGradient id="tw" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f0fdfa"/></linearGradient>
<linearGradient id="scan" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="$TEAL2" stop-opacity="0"/><stop offset="1" stop-color="$TEAL2" stop-opacity=".28"/></linearGradient>
<linearGradient id="scanl"><stop offset="0" stop-color="$TEAL2" stop-opacity="0"/><stop offset=".5" stop-color="$TEAL2"/><stop offset="1" stop-color="$TEAL2" stop-opacity="0"/></linearGradient>
<clipPath id="tc"><path d="$TOOTH" transform="translate(230,48) scale(3.4)"/></clipPath>
<pattern id="dots" width="22" height="22" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1.2" fill="$TEAL" fill-opacity=".10"/></pattern></defs>
<rect width="800" height="450" fill="url(#bg)"/><rect width="800" height="450" fill="url(#dots)"/>
<circle cx="640" cy="90" r="300" fill="url(#b1)"/><circle cx="90" cy="420" r="240" fill="url(#b2)"/>
<path d="$TOOTH" transform="translate(230,48) scale(3.4)" fill="url(#tw)"/>
<g clip-path="url(#tc)"><rect x="230" y="150" width="340" height="80" fill="url(#scan)"/><rect x="230" y="228" width="340" height="3" fill="url(#scanl)"/></g>
<path d="$TOOTH" transform="translate(230,48) scale(3.4)" fill="none" stroke="$NAVY" stroke-width="1.1" stroke-linejoin="round"/>
<rect x="352" y="104" width="70" height="58" rx="8" fill="$ROSE" fill-opacity=".06" stroke="$ROSE" stroke-width="2" stroke-dasharray="6 5"/>
<circle cx="386" cy="132" r="9" fill="$ROSE" fill-opacity=".55"/><circle cx="386" cy="132" r="16" fill="none" stroke="$ROSE" stroke-opacity=".35" stroke-width="2"/>
$(awk -v teal="$TEAL" -v teal2="$TEAL2" -v rose="$ROSE" -v navy="$NAVY" 'BEGIN{
  n=split("130:140,200,260,320|300:115,170,225,280,335|500:115,170,225,280,335|670:195,265", L, "|")
  for(l=1;l<=n;l++){split(L[l],p,":"); X[l]=p[1]; c[l]=split(p[2],ys,","); for(k=1;k<=c[l];k++) Y[l,k]=ys[k]}
  hot["1,2"]=1; hot["2,3"]=1; hot["3,2"]=1; hot["4,1"]=1
  for(l=1;l<n;l++) for(a=1;a<=c[l];a++) for(b=1;b<=c[l+1];b++){
    h=(((l","a) in hot) && (((l+1)","b) in hot))
    if(!h) printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-opacity=\".28\" stroke-width=\"1.3\"/>\n", X[l],Y[l,a],X[l+1],Y[l+1,b], teal}
  for(l=1;l<n;l++) for(a=1;a<=c[l];a++) for(b=1;b<=c[l+1];b++)
    if(((l","a) in hot) && (((l+1)","b) in hot)) printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2.6\"/>\n", X[l],Y[l,a],X[l+1],Y[l+1,b], rose
  for(l=1;l<=n;l++) for(k=1;k<=c[l];k++){
    if((l","k) in hot && l==4) printf "<circle cx=\"%d\" cy=\"%d\" r=\"20\" fill=\"%s\" fill-opacity=\".12\"/><circle cx=\"%d\" cy=\"%d\" r=\"11\" fill=\"%s\"/>\n", X[l],Y[l,k],rose,X[l],Y[l,k],rose
    else if((l","k) in hot) printf "<circle cx=\"%d\" cy=\"%d\" r=\"9\" fill=\"#ffffff\" stroke=\"%s\" stroke-width=\"3\"/>\n", X[l],Y[l,k],rose
    else if((l+k)%3==0) printf "<circle cx=\"%d\" cy=\"%d\" r=\"8\" fill=\"%s\"/>\n", X[l],Y[l,k],teal
    else printf "<circle cx=\"%d\" cy=\"%d\" r=\"8\" fill=\"#ffffff\" stroke=\"%s\" stroke-width=\"2.5\"/>\n", X[l],Y[l,k],teal2}}')
$(chip 28 26 252 "Diagnóstico asistido por IA" $TEAL2)
<g filter="url(#sh)"><rect x="600" y="300" width="172" height="84" rx="14" fill="#ffffff"/></g>
<text x="618" y="328" font-family="DejaVu Sans" font-size="12" fill="$SLATE">Hallazgo detectado</text>
<text x="618" y="356" font-family="DejaVu Sans" font-weight="bold" font-size="20" fill="$NAVY">96%</text>
<rect x="618" y="366" width="136" height="6" rx="3" fill="#e2e8f0"/><rect x="618" y="366" width="130" height="6" rx="3" fill="$ROSE"/>
</svg>
EOF
svg2webp articulo-1 800 450 80

# 2. Dental implant: screw + abutment + crown in a bone/gum cross-section
cat > "$TMP/articulo-2.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450" viewBox="0 0 800 450"><defs>$ART_BG $SHADOW
$(blobgrad b1 $TEAL2 .28)
<linearGradient id="gum" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fecdd3"/><stop offset="1" stop-color="#fda4af"/></linearGradient>
<linearGradient id="bone" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f8f4ec"/><stop offset="1" stop-color="#eae3d4"/></linearGradient>
<linearGradient id="nt" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f1f5f9"/></linearGradient></defs>
<rect width="800" height="450" fill="url(#bg)"/>
<circle cx="400" cy="150" r="260" fill="url(#b1)"/>
<path d="M0,274 C140,266 260,282 400,272 C540,262 660,280 800,270 L800,450 L0,450 Z" fill="url(#bone)"/>
$(awk 'BEGIN{srand(7); for(i=0;i<70;i++){x=rand()*800; y=290+rand()*150; r=2+rand()*5; printf "<ellipse cx=\"%.0f\" cy=\"%.0f\" rx=\"%.1f\" ry=\"%.1f\" fill=\"#d6ccb8\" fill-opacity=\".45\"/>\n", x, y, r*1.4, r}}')
<path d="$TOOTH" transform="translate(60,81) scale(2.6)" fill="url(#nt)" stroke="#94a3b8" stroke-width=".9" opacity=".85"/>
<path d="M0,246 C120,236 240,250 330,240 C370,234 430,234 470,240 C560,250 680,236 800,246 L800,284 C660,290 540,272 400,282 C260,292 140,276 0,284 Z" fill="url(#gum)"/>
<g transform="translate(400,210)">$(implant '#f1f5f9' $TEAL '#64748b' im)</g>
<path d="M330,246 C370,240 430,240 470,246" fill="none" stroke="#fb7185" stroke-opacity=".5" stroke-width="3"/>
<g font-family="DejaVu Sans" font-size="15" fill="$NAVY" stroke-linecap="round">
<path d="M452,140 L520,112 L560,112" fill="none" stroke="$NAVY" stroke-opacity=".5" stroke-width="1.5"/><circle cx="452" cy="140" r="5" fill="$TEAL2"/>
<text x="570" y="117" font-weight="bold">Corona cerámica</text>
<path d="M423,228 L520,206 L560,206" fill="none" stroke="$NAVY" stroke-opacity=".5" stroke-width="1.5"/><circle cx="423" cy="228" r="5" fill="$TEAL2"/>
<text x="570" y="211" font-weight="bold">Pilar</text>
<path d="M436,330 L520,348 L560,348" fill="none" stroke="$NAVY" stroke-opacity=".5" stroke-width="1.5"/><circle cx="436" cy="330" r="5" fill="$ROSE"/>
<text x="570" y="353" font-weight="bold">Implante de titanio</text></g>
$(chip 28 26 194 "Implantes dentales" $TEAL2)
</svg>
EOF
svg2webp articulo-2 800 450 80

# 3. Veneers vs whitening: smile arc + shade guide
cat > "$TMP/articulo-3.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450" viewBox="0 0 800 450"><defs>$ART_BG $SHADOW
$(blobgrad b1 $TEAL2 .26)$(blobgrad b2 $ROSE .09)
<linearGradient id="tw" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f1f5f9"/></linearGradient>
<linearGradient id="ty" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f8ecd0"/><stop offset="1" stop-color="#ead6a6"/></linearGradient>
<linearGradient id="scale"><stop offset="0" stop-color="#e3c98f"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs>
<rect width="800" height="450" fill="url(#bg)"/>
<circle cx="270" cy="220" r="280" fill="url(#b1)"/><circle cx="700" cy="420" r="220" fill="url(#b2)"/>
<g transform="translate(272,228) scale(1.2)">$(smile 'url(#ty)' 'url(#tw)' s3)</g>
<line x1="272" y1="120" x2="272" y2="352" stroke="$NAVY" stroke-opacity=".35" stroke-width="1.5" stroke-dasharray="5 6"/>
<g font-family="DejaVu Sans" font-size="15" font-weight="bold" text-anchor="middle">
<text x="170" y="384" fill="$SLATE">Antes</text><text x="374" y="384" fill="$TEAL">Después</text></g>
<path d="M420,128 l5,13 l13,5 l-13,5 l-5,13 l-5,-13 l-13,-5 l13,-5 Z" fill="$TEAL2"/>
<path d="M446,104 l3,7 l7,3 l-7,3 l-3,7 l-3,-7 l-7,-3 l7,-3 Z" fill="$TEAL2" fill-opacity=".6"/>
<g filter="url(#sh)"><rect x="566" y="54" width="200" height="332" rx="18" fill="#ffffff"/></g>
<text x="590" y="90" font-family="DejaVu Sans" font-weight="bold" font-size="15" fill="$NAVY">Guía de color</text>
<text x="590" y="110" font-family="DejaVu Sans" font-size="11" fill="$SLATE">Carillas · blanqueamiento</text>
$(awk 'BEGIN{split("#e3c98f #ead5a3 #f0e0b9 #f5ead0 #faf4e6 #ffffff",c," "); split("A3.5 A3 A2 A1 B1 BL1",n," ");
  for(i=1;i<=6;i++){x=583+(i-1)*29;
    printf "<path d=\"M%d,132 h24 v104 a12,14 0 0 1 -24,0 Z\" fill=\"%s\" stroke=\"#cbd5e1\" stroke-width=\"1\"/>\n", x, c[i]
    printf "<rect x=\"%d\" y=\"124\" width=\"24\" height=\"14\" rx=\"3\" fill=\"#94a3b8\"/>\n", x
    printf "<text x=\"%d\" y=\"272\" font-family=\"DejaVu Sans\" font-size=\"10\" fill=\"#475569\" text-anchor=\"middle\">%s</text>\n", x+12, n[i]}}')
<rect x="725" y="118" width="34" height="136" rx="10" fill="none" stroke="$TEAL2" stroke-width="2.5"/>
<rect x="590" y="298" width="152" height="10" rx="5" fill="url(#scale)" stroke="#e2e8f0"/>
<text x="590" y="332" font-family="DejaVu Sans" font-size="11" fill="$SLATE">Natural</text>
<text x="742" y="332" font-family="DejaVu Sans" font-size="11" fill="$TEAL" font-weight="bold" text-anchor="end">Más claro</text>
<circle cx="742" cy="303" r="7" fill="$TEAL2" stroke="#ffffff" stroke-width="2"/>
</svg>
EOF
svg2webp articulo-3 800 450 80

# 4. Facial aesthetics: profile line art + facial thirds + symmetry inset
cat > "$TMP/articulo-4.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450" viewBox="0 0 800 450"><defs>$ART_BG $SHADOW
$(blobgrad b1 $TEAL2 .28)$(blobgrad b2 $ROSE .09)</defs>
<rect width="800" height="450" fill="url(#bg)"/>
<circle cx="420" cy="210" r="260" fill="url(#b1)"/><circle cx="120" cy="60" r="200" fill="url(#b2)"/>
<g stroke="$TEAL" stroke-opacity=".55" stroke-width="1.5" stroke-dasharray="4 6">
<line x1="30" y1="68" x2="590" y2="68"/><line x1="30" y1="166" x2="590" y2="166"/><line x1="30" y1="262" x2="590" y2="262"/><line x1="30" y1="362" x2="590" y2="362"/></g>
$(profile $NAVY $ROSE)
<g fill="#ffffff" stroke="$TEAL2" stroke-width="3"><circle cx="438" cy="68" r="6"/><circle cx="449" cy="166" r="6"/><circle cx="468" cy="262" r="6"/><circle cx="452" cy="362" r="6"/></g>
<circle cx="502" cy="246" r="6" fill="$ROSE"/><circle cx="471" cy="342" r="6" fill="$ROSE"/>
<g font-family="DejaVu Sans" font-size="14" fill="$SLATE">
<text x="34" y="122">Tercio superior</text><text x="34" y="219">Tercio medio</text><text x="34" y="316">Tercio inferior</text></g>
<g font-family="DejaVu Sans" font-size="13" font-weight="bold" fill="$TEAL"><text x="34" y="142">1/3</text><text x="34" y="239">1/3</text><text x="34" y="336">1/3</text></g>
<text x="520" y="206" font-family="DejaVu Sans" font-size="12" font-weight="bold" fill="$ROSE">Línea E</text>
<g filter="url(#sh)"><rect x="616" y="86" width="158" height="270" rx="18" fill="#ffffff"/></g>
<g transform="translate(695,212)" fill="none" stroke="$NAVY" stroke-width="2.5" stroke-linecap="round">
<path d="M0,-82 C44,-82 56,-40 54,-6 C52,34 30,74 0,80 C-30,74 -52,34 -54,-6 C-56,-40 -44,-82 0,-82 Z"/>
<path d="M-34,-18 Q-22,-26 -10,-18 M10,-18 Q22,-26 34,-18" stroke-width="2.2"/>
<path d="M-36,-32 Q-22,-40 -8,-34 M8,-34 Q22,-40 36,-32" stroke-width="2.2"/>
<path d="M-6,-6 L-9,18 Q0,23 9,18" stroke-width="2"/>
<path d="M-18,40 Q0,50 18,40" stroke="$ROSE" stroke-width="2.6"/>
<line x1="0" y1="-102" x2="0" y2="100" stroke="$ROSE" stroke-dasharray="5 5" stroke-width="1.6"/>
<line x1="-64" y1="-20" x2="64" y2="-20" stroke="$TEAL2" stroke-width="1.4"/><line x1="-64" y1="40" x2="64" y2="40" stroke="$TEAL2" stroke-width="1.4"/></g>
<text x="695" y="338" font-family="DejaVu Sans" font-size="13" font-weight="bold" fill="$NAVY" text-anchor="middle">Simetría facial</text>
</svg>
EOF
svg2webp articulo-4 800 450 80

# 5. Digital smile design: tablet with grid, smile, midline and proportions
cat > "$TMP/articulo-5.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450" viewBox="0 0 800 450"><defs>$ART_BG $SHADOW
$(blobgrad b1 $TEAL2 .30)$(blobgrad b2 $ROSE .08)
<linearGradient id="tw" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f1f5f9"/></linearGradient>
<pattern id="g1" width="20" height="20" patternUnits="userSpaceOnUse"><path d="M20,0 V20 H0" fill="none" stroke="$TEAL2" stroke-opacity=".16" stroke-width="1"/></pattern>
<pattern id="g2" width="100" height="100" patternUnits="userSpaceOnUse" x="0" y="35"><path d="M100,0 V100 H0" fill="none" stroke="$TEAL2" stroke-opacity=".32" stroke-width="1.2"/></pattern>
<clipPath id="scr"><rect x="128" y="58" width="544" height="334" rx="12"/></clipPath></defs>
<rect width="800" height="450" fill="url(#bg)"/>
<circle cx="120" cy="80" r="260" fill="url(#b1)"/><circle cx="720" cy="400" r="220" fill="url(#b2)"/>
<g filter="url(#sh)"><rect x="112" y="42" width="576" height="366" rx="26" fill="$NAVY"/></g>
<rect x="128" y="58" width="544" height="334" rx="12" fill="#f8fafc"/>
<g clip-path="url(#scr)"><rect x="128" y="58" width="544" height="334" fill="url(#g1)"/><rect x="128" y="58" width="544" height="334" fill="url(#g2)"/>
<g transform="translate(400,238) scale(1.25)">$(smile 'url(#tw)' 'url(#tw)' s5)
$(awk -v t="$TEAL2" 'BEGIN{split("34 28 26 22",w," "); split("32 27 22 16",b," ");
  for(s=-1;s<=1;s+=2){x=0; for(i=1;i<=4;i++){x0=(s>0)?x+1:-x-w[i]+1;
    printf "<rect x=\"%.1f\" y=\"-26\" width=\"%.1f\" height=\"%.1f\" rx=\"8\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.4\" stroke-dasharray=\"4 3\"/>\n", x0, w[i]-2, b[i]+26, t; x+=w[i]}}}')
<path d="M-140,6 Q0,66 140,6" fill="none" stroke="$TEAL" stroke-width="2" stroke-dasharray="6 5"/></g>
<line x1="400" y1="96" x2="400" y2="372" stroke="$ROSE" stroke-width="2"/>
<line x1="150" y1="178" x2="650" y2="178" stroke="$TEAL" stroke-opacity=".7" stroke-width="1.5"/>
$(awk -v t="$TEAL" 'BEGIN{split("0 42.5 77.5 110",e," "); split("1.618 1 0.618",l," ");
  for(s=-1;s<=1;s+=2) for(i=1;i<=3;i++){a=400+s*e[i]; b=400+s*e[i+1]; y=142;
    printf "<path d=\"M%.1f,%d v-8 M%.1f,%d v-8 M%.1f,%d H%.1f\" stroke=\"%s\" stroke-width=\"1.6\" fill=\"none\"/>\n", a,y+4,b,y+4,a,y,b,t
    printf "<text x=\"%.1f\" y=\"%d\" font-family=\"DejaVu Sans\" font-size=\"10\" fill=\"%s\" text-anchor=\"middle\">%s</text>\n", (a+b)/2, y-7, t, l[i]}}')
</g>
<g fill="#ffffff" stroke="#e2e8f0"><rect x="146" y="76" width="34" height="34" rx="9"/><rect x="146" y="118" width="34" height="34" rx="9"/><rect x="146" y="160" width="34" height="34" rx="9"/></g>
<path d="M155,93 h16 M163,85 v16" stroke="$TEAL" stroke-width="2.4" stroke-linecap="round"/>
<circle cx="163" cy="135" r="7" fill="none" stroke="$TEAL" stroke-width="2.4"/>
<path d="M154,177 h18 M156,171 v12 M170,171 v12" stroke="$ROSE" stroke-width="2.2" stroke-linecap="round"/>
<g filter="url(#sh)"><rect x="488" y="314" width="166" height="60" rx="12" fill="#ffffff"/></g>
<text x="502" y="338" font-family="DejaVu Sans" font-size="11" fill="$SLATE">Diseño de sonrisa</text>
<text x="502" y="360" font-family="DejaVu Sans" font-weight="bold" font-size="15" fill="$NAVY">Proporción áurea</text>
<circle cx="400" cy="50" r="3" fill="#334155"/>
</svg>
EOF
svg2webp articulo-5 800 450 80

# ========================================================== guide covers ===
echo "· guides"
cover() { # name bg1 bg2 title-colour eyebrow-colour sub-colour "title lines|..." "subtitle lines|..." illustration rose-glow
  local name=$1 b1=$2 b2=$3 tc=$4 ec=$5 sc=$6 title=$7 sub=$8 art=$9 rg=${10} y=222 line
  {
    echo "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"800\" viewBox=\"0 0 600 800\"><defs>$SHADOW"
    echo "<linearGradient id=\"bg\" x1=\"0\" y1=\"0\" x2=\".6\" y2=\"1\"><stop offset=\"0\" stop-color=\"$b1\"/><stop offset=\"1\" stop-color=\"$b2\"/></linearGradient>"
    echo "$(blobgrad c1 $TEAL2 .35)$(blobgrad c2 $ROSE "$rg")</defs>"
    echo "<rect width=\"600\" height=\"800\" fill=\"url(#bg)\"/>"
    echo "<circle cx=\"520\" cy=\"600\" r=\"320\" fill=\"url(#c1)\"/><circle cx=\"40\" cy=\"120\" r=\"240\" fill=\"url(#c2)\"/>"
    echo "<rect x=\"28\" y=\"28\" width=\"544\" height=\"744\" rx=\"6\" fill=\"none\" stroke=\"$tc\" stroke-opacity=\".14\"/>"
    brand 56 58 "$tc"
    echo "<text x=\"56\" y=\"158\" font-family=\"DejaVu Sans\" font-weight=\"bold\" font-size=\"13\" letter-spacing=\"3\" fill=\"$ec\">GUÍA PARA PACIENTES</text>"
    echo "<rect x=\"56\" y=\"172\" width=\"48\" height=\"4\" rx=\"2\" fill=\"$ROSE\"/>"
    IFS='|' read -ra L <<<"$title"
    for line in "${L[@]}"; do
      echo "<text x=\"54\" y=\"$y\" font-family=\"DejaVu Sans\" font-weight=\"bold\" font-size=\"50\" letter-spacing=\"-1\" fill=\"$tc\">$line</text>"
      y=$((y + 58))
    done
    y=$((y - 8))
    IFS='|' read -ra L <<<"$sub"
    for line in "${L[@]}"; do
      echo "<text x=\"56\" y=\"$y\" font-family=\"DejaVu Sans\" font-size=\"18\" fill=\"$sc\">$line</text>"
      y=$((y + 26))
    done
    echo "$art"
    echo "<line x1=\"56\" y1=\"728\" x2=\"544\" y2=\"728\" stroke=\"$tc\" stroke-opacity=\".18\"/>"
    echo "<text x=\"56\" y=\"752\" font-family=\"DejaVu Sans\" font-size=\"13\" fill=\"$sc\">Providencia, Santiago de Chile</text>"
    echo "<text x=\"544\" y=\"752\" font-family=\"DejaVu Sans\" font-size=\"13\" font-weight=\"bold\" fill=\"$ec\" text-anchor=\"end\">Edición digital</text>"
    echo "</svg>"
  } > "$TMP/$name.svg"
  svg2webp "$name" 600 800 82
}

ART1="<circle cx=\"300\" cy=\"560\" r=\"128\" fill=\"none\" stroke=\"$TEAL2\" stroke-opacity=\".35\" stroke-width=\"1.5\"/>
<circle cx=\"300\" cy=\"560\" r=\"152\" fill=\"none\" stroke=\"$TEAL2\" stroke-opacity=\".18\" stroke-dasharray=\"3 7\" stroke-width=\"1.5\"/>
<circle cx=\"428\" cy=\"560\" r=\"6\" fill=\"$ROSE\"/><circle cx=\"172\" cy=\"560\" r=\"4\" fill=\"$TEAL2\"/>
<g transform=\"translate(300,546) scale(.78)\">$(implant '#e2e8f0' $TEAL2 '#334155' cv)</g>"
cover guia-implantes "$NAVY" '#0b4440' '#ffffff' '#5eead4' '#99f6e4' \
  "Guía Completa|de Implantes|Dentales" "Todo lo que necesitas saber antes,|durante y después del tratamiento." "$ART1" 0

ART2="<g transform=\"translate(150,428) scale(.63)\">
<g stroke=\"$TEAL\" stroke-opacity=\".5\" stroke-width=\"2\" stroke-dasharray=\"4 7\"><line x1=\"150\" y1=\"68\" x2=\"600\" y2=\"68\"/><line x1=\"150\" y1=\"166\" x2=\"600\" y2=\"166\"/><line x1=\"150\" y1=\"262\" x2=\"600\" y2=\"262\"/><line x1=\"150\" y1=\"362\" x2=\"600\" y2=\"362\"/></g>
$(profile $NAVY $ROSE)
<g fill=\"#ffffff\" stroke=\"$TEAL2\" stroke-width=\"4\"><circle cx=\"438\" cy=\"68\" r=\"8\"/><circle cx=\"449\" cy=\"166\" r=\"8\"/><circle cx=\"468\" cy=\"262\" r=\"8\"/><circle cx=\"452\" cy=\"362\" r=\"8\"/></g>
<circle cx=\"502\" cy=\"246\" r=\"8\" fill=\"$ROSE\"/><circle cx=\"471\" cy=\"342\" r=\"8\" fill=\"$ROSE\"/></g>"
cover guia-estetica-facial '#ffffff' '#e7f8f4' "$NAVY" "$TEAL" '#475569' \
  "Estética|Facial|Avanzada" "Armonización, proporciones y|tratamientos mínimamente invasivos." "$ART2" .12

ART3="<g transform=\"translate(300,556) scale(1.12)\">$(smile '#ffffff' '#ffffff' cc '#fecaca' '#ffffff')</g>
$(awk 'BEGIN{split("#e3c98f #ead5a3 #f0e0b9 #f5ead0 #faf4e6 #ffffff",c," ");
  for(i=1;i<=6;i++){x=195+(i-1)*36; printf "<path d=\"M%d,650 h28 v44 a14,14 0 0 1 -28,0 Z\" fill=\"%s\" stroke=\"#ffffff\" stroke-opacity=\".6\"/>\n", x, c[i]}}')
<rect x=\"371\" y=\"642\" width=\"40\" height=\"74\" rx=\"12\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"2.5\"/>"
cover guia-carillas "$TEAL" '#0b4f4a' '#ffffff' '#99f6e4' '#ccfbf1' \
  "Carillas y|Estética|Dental" "Diseño de sonrisa, materiales y|cuidados para un resultado natural." "$ART3" 0

# ============================================================= og-image ===
echo "· og-image"
cat > "$TMP/og-image.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630"><defs>$ART_BG $SHADOW
$(blobgrad b1 $TEAL2 .40)$(blobgrad b2 $ROSE .10)$(blobgrad b3 $TEAL .25)
<linearGradient id="tile" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="$TEAL2"/><stop offset="1" stop-color="$TEAL"/></linearGradient>
<linearGradient id="tw" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f0fdfa"/></linearGradient>
<pattern id="dots" width="24" height="24" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1.3" fill="$TEAL" fill-opacity=".10"/></pattern></defs>
<rect width="1200" height="630" fill="url(#bg)"/><rect x="700" width="500" height="630" fill="url(#dots)"/>
<circle cx="960" cy="300" r="360" fill="url(#b1)"/><circle cx="1120" cy="600" r="260" fill="url(#b2)"/><circle cx="40" cy="0" r="300" fill="url(#b3)"/>
<g filter="url(#sh)"><circle cx="960" cy="318" r="196" fill="#ffffff"/></g>
<circle cx="960" cy="318" r="222" fill="none" stroke="$TEAL2" stroke-opacity=".35" stroke-dasharray="3 8" stroke-width="2"/>
<path d="$TOOTH" transform="translate(840,186) scale(2.4)" fill="url(#tw)" stroke="$NAVY" stroke-width="1.2" stroke-linejoin="round"/>
$(awk -v teal="$TEAL" -v teal2="$TEAL2" -v rose="$ROSE" 'BEGIN{
  split("900,250 960,232 1020,250 880,320 960,306 1040,320 920,390 1000,390", P, " ")
  split("1-2 2-3 1-4 2-5 3-6 4-5 5-6 4-7 5-7 5-8 6-8 7-8 1-5 3-5", E, " ")
  for(e in E){split(E[e],ab,"-"); split(P[ab[1]],p," "); split(P[ab[2]],q," "); split(P[ab[1]],p,","); split(P[ab[2]],q,",");
    printf "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-opacity=\".45\" stroke-width=\"2\"/>\n", p[1],p[2],q[1],q[2],teal}
  for(i=1;i<=8;i++){split(P[i],p,","); c=(i==5)?rose:teal2;
    printf "<circle cx=\"%s\" cy=\"%s\" r=\"9\" fill=\"#ffffff\" stroke=\"%s\" stroke-width=\"3.5\"/>\n", p[1],p[2],c}}')
<rect x="80" y="86" width="60" height="60" rx="16" fill="url(#tile)"/>
<path d="$TOOTH" transform="translate(87,92) scale(.46)" fill="#ffffff"/>
<text x="158" y="112" font-family="DejaVu Sans" font-weight="bold" font-size="20" fill="$NAVY">Río Clínica</text>
<text x="158" y="136" font-family="DejaVu Sans" font-size="15" letter-spacing="2" fill="$TEAL">SANTIAGO · CHILE</text>
<text font-family="DejaVu Sans" font-weight="bold" font-size="56" letter-spacing="-1" fill="$NAVY"><tspan x="78" y="250">Río Clínica Dental</tspan><tspan x="78" y="318">y Estética Facial</tspan></text>
<rect x="80" y="350" width="72" height="6" rx="3" fill="$ROSE"/>
<text font-family="DejaVu Sans" font-size="28" fill="#334155"><tspan x="80" y="410">Odontología y estética facial</tspan><tspan x="80" y="448">con IA en Santiago</tspan></text>
$(awk -v navy="$NAVY" -v teal="$TEAL" 'BEGIN{n=split("Implantes|Carillas|Estética facial|Diagnóstico IA", L, "|"); x=80;
  for(i=1;i<=n;i++){w=length(L[i])*9.6+36; if(L[i] ~ /[íé]/) w-=9.6;
    printf "<rect x=\"%d\" y=\"500\" width=\"%d\" height=\"40\" rx=\"20\" fill=\"#ffffff\" stroke=\"#99f6e4\" stroke-width=\"1.5\"/>\n", x, w
    printf "<text x=\"%d\" y=\"526\" font-family=\"DejaVu Sans\" font-size=\"16\" fill=\"%s\" text-anchor=\"middle\">%s</text>\n", x+w/2, navy, L[i]; x+=w+12}}')
</svg>
EOF
svg2png "$TMP/og-image.svg" 1200 630 "$TMP/og-image.png"
"${IM[@]}" "$TMP/og-image.png" -strip -background white -flatten -sampling-factor 4:2:0 -interlace Plane -quality 84 "$OUT/og-image.jpg"

# ================================================================= icons ===
echo "· icons"
cat > "$OUT/favicon.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="$TOOTH" transform="translate(-2,-2) scale(1.04)" fill="$TEAL"/><path d="M27,30 C31,25 39,25 44,29" fill="none" stroke="#ffffff" stroke-width="6" stroke-linecap="round" opacity=".9"/></svg>
EOF
cat > "$TMP/apple-touch-icon.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="180" height="180" viewBox="0 0 180 180"><defs>
<linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="$TEAL2"/><stop offset="1" stop-color="$TEAL"/></linearGradient></defs>
<rect width="180" height="180" fill="url(#g)"/>
<path d="$TOOTH" transform="translate(30,28) scale(1.2)" fill="#ffffff"/>
<path d="M60,62 C65,55 75,55 81,60" fill="none" stroke="$TEAL2" stroke-opacity=".55" stroke-width="6" stroke-linecap="round"/>
<path d="M140,30 l3.5,9 l9,3.5 l-9,3.5 l-3.5,9 l-3.5,-9 l-9,-3.5 l9,-3.5 Z" fill="#ffffff" fill-opacity=".8"/></svg>
EOF
svg2png "$TMP/apple-touch-icon.svg" 180 180 "$TMP/apple-touch-icon.png"
"${IM[@]}" "$TMP/apple-touch-icon.png" -strip -alpha off -define png:compression-level=9 "$OUT/apple-touch-icon.png"

# ================================================================== map ===
echo "· contacto-mapa"
cat > "$TMP/contacto-mapa.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500" viewBox="0 0 800 500"><defs>$SHADOW
<radialGradient id="halo"><stop offset="0" stop-color="$ROSE" stop-opacity=".22"/><stop offset="1" stop-color="$ROSE" stop-opacity="0"/></radialGradient>
<radialGradient id="pshadow"><stop offset="0" stop-color="$NAVY" stop-opacity=".3"/><stop offset="1" stop-color="$NAVY" stop-opacity="0"/></radialGradient></defs>
<rect width="800" height="500" fill="#ffffff"/>
<g transform="rotate(-16 400 250)">
$(awk 'BEGIN{srand(11); for(i=-4;i<=10;i++) for(j=-4;j<=8;j++){x=i*104-60; y=j*78-40; w=86; h=60;
  f=((i==5||i==6)&&(j==1))? "#d5f5ec" : "#eef2f6"; if((i+j)%7==0) f="#e8edf3";
  printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\" fill=\"%s\"/>\n", x, y, w, h, f}
  for(k=0;k<9;k++) printf "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"%.1f\" fill=\"#99e6d2\"/>\n", 480+rand()*176, 44+rand()*50, 4+rand()*4}')
<rect x="-300" y="263" width="1400" height="26" fill="#ffffff"/><rect x="-300" y="263" width="1400" height="26" fill="none" stroke="#e2e8f0" stroke-width="2"/>
<rect x="352" y="-300" width="20" height="1100" fill="#ffffff"/>
<text x="90" y="281" font-family="DejaVu Sans" font-size="12" font-weight="bold" fill="#94a3b8" letter-spacing="1.5">AV. PROVIDENCIA</text>
</g>
<path d="M-20,150 C120,120 220,140 330,110 C450,78 560,96 660,60 C720,40 780,30 830,20" fill="none" stroke="#bfe9e1" stroke-width="34" stroke-linecap="round"/>
<path d="M-20,150 C120,120 220,140 330,110 C450,78 560,96 660,60 C720,40 780,30 830,20" fill="none" stroke="#a7e3d8" stroke-width="2" stroke-dasharray="10 14" transform="translate(0,2)"/>
<text x="120" y="127" font-family="DejaVu Sans" font-size="12" font-style="italic" fill="$TEAL" transform="rotate(-8 120 127)">Río Mapocho</text>
<g fill="$TEAL2"><circle cx="600" cy="392" r="10" fill="#ffffff" stroke="$TEAL2" stroke-width="2"/><text x="600" y="397" font-family="DejaVu Sans" font-size="11" font-weight="bold" text-anchor="middle">M</text></g>
<ellipse cx="432" cy="292" rx="22" ry="7" fill="url(#pshadow)"/>
<circle cx="432" cy="290" r="64" fill="url(#halo)"/>
<path d="M432,292 C420,270 402,256 402,234 C402,217 415,204 432,204 C449,204 462,217 462,234 C462,256 444,270 432,292 Z" fill="$ROSE"/>
<circle cx="432" cy="234" r="11" fill="#ffffff"/>
<g filter="url(#sh)"><rect x="482" y="196" width="232" height="74" rx="14" fill="#ffffff"/></g>
<path d="M482,224 l-10,9 l10,9 Z" fill="#ffffff"/>
<text x="502" y="226" font-family="DejaVu Sans" font-weight="bold" font-size="17" fill="$NAVY">Providencia, Santiago</text>
<text x="502" y="250" font-family="DejaVu Sans" font-size="13" fill="$TEAL">Río Clínica Dental</text>
<g filter="url(#sh)"><rect x="24" y="436" width="40" height="40" rx="10" fill="#ffffff"/><rect x="72" y="436" width="40" height="40" rx="10" fill="#ffffff"/></g>
<path d="M36,456 h16 M44,448 v16 M84,456 h16" stroke="$SLATE" stroke-width="2.4" stroke-linecap="round"/>
<g transform="translate(752,452)"><circle r="22" fill="#ffffff" stroke="#e2e8f0"/><path d="M0,-15 L6,2 L0,-2 L-6,2 Z" fill="$ROSE"/><path d="M0,15 L6,-2 L0,2 L-6,-2 Z" fill="#cbd5e1"/></g>
</svg>
EOF
svg2webp contacto-mapa 800 500 80

echo "done: $(du -ch "$OUT"/* | tail -1 | cut -f1) in $OUT"
