import { describe, expect, it } from 'vitest';
import {
  escapeCommandData,
  escapeCommandProperty,
  formatAnnotation,
  formatOutputs,
} from './github-commands.ts';

describe('workflow command escaping', () => {
  it.each([
    { text: '100% of 5', data: '100%25 of 5', property: '100%25 of 5' },
    { text: 'a\nb\r\nc', data: 'a%0Ab%0D%0Ac', property: 'a%0Ab%0D%0Ac' },
    // An already-encoded value stays what it says: `%0A` in a name is not decoded into a line break.
    { text: 'x%0A::error::y', data: 'x%250A::error::y', property: 'x%250A%3A%3Aerror%3A%3Ay' },
    { text: 'k8s/a,b:c.yaml', data: 'k8s/a,b:c.yaml', property: 'k8s/a%2Cb%3Ac.yaml' },
  ])('$text', ({ text, data, property }) => {
    expect(escapeCommandData(text)).toBe(data);
    expect(escapeCommandProperty(text)).toBe(property);
  });
});

describe('formatAnnotation', () => {
  it('one line whatever the message holds; a line only with a file', () => {
    expect(
      formatAnnotation({
        level: 'error',
        file: 'k8s/storage,v2.yaml',
        line: 17,
        title: 'blockwise: over_provisioned',
        message: 'pvc main\n::error::injected',
      }),
    ).toBe(
      '::error file=k8s/storage%2Cv2.yaml,line=17,title=blockwise%3A over_provisioned::pvc main%0A::error::injected\n',
    );
    expect(formatAnnotation({ level: 'notice', line: 3, message: 'no file' })).toBe('::notice::no file\n');
  });
});

describe('formatOutputs', () => {
  it('a delimited block per output; a value holding the delimiter is refused', () => {
    expect(formatOutputs({ verdict: 'pass', 'run-urls': 'a\nb' }, 'EOF_1')).toBe(
      'verdict<<EOF_1\npass\nEOF_1\nrun-urls<<EOF_1\na\nb\nEOF_1\n',
    );
    expect(() => formatOutputs({ x: 'a\nEOF_1\ny<<EOF_1' }, 'EOF_1')).toThrow(/delimiter/);
  });
});
