#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// The Objective-C model of UIKit's image paths the agent suites record (../shared/docs/apple-image-paths.md),
    /// compiled at test time unoptimized and optimized; it writes its own truth.
    extension AgentRecordTests {
        static let uikitModel = #"""
            #import <Foundation/Foundation.h>
            #include <pthread.h>
            #include <stdio.h>
            #include <stdlib.h>

            /* The truth: one line per request, written by the code that makes it. */
            static FILE *truth;
            static NSLock *truthLock;
            static void request(const char *kind, const char *api, NSString *name) {
                [truthLock lock];
                fprintf(truth, "%s\t%s\t%s\n", kind, api, name ? [name UTF8String] : "(nil)");
                fflush(truth);
                [truthLock unlock];
            }

            /* CoreUI: ten arguments, a double among them; it checks they all arrive. */
            @interface CUICatalog : NSObject
            - (id)imageWithName:(NSString *)n scaleFactor:(double)s deviceIdiom:(long)i deviceSubtype:(unsigned long)st displayGamut:(long)g layoutDirection:(long)l sizeClassHorizontal:(long)h sizeClassVertical:(long)v appearanceName:(NSString *)a locale:(NSString *)loc;
            - (id)namedLookupWithName:(NSString *)n scaleFactor:(double)s deviceIdiom:(long)i deviceSubtype:(unsigned long)st displayGamut:(long)g layoutDirection:(long)l sizeClassHorizontal:(long)h sizeClassVertical:(long)v appearanceName:(NSString *)a locale:(NSString *)loc;
            @end
            static void check(double s, long i, unsigned long st, long g, long l, long h, long v, NSString *a, NSString *loc) {
                if (s != 3.0 || i != 1 || st != 2 || g != 3 || l != 4 || h != 5 || v != 6 || ![a isEqual:@"dark"] || ![loc isEqual:@"en"]) {
                    fprintf(stderr, "arguments damaged\n");
                    abort();
                }
            }
            @implementation CUICatalog
            - (id)imageWithName:(NSString *)n scaleFactor:(double)s deviceIdiom:(long)i deviceSubtype:(unsigned long)st displayGamut:(long)g layoutDirection:(long)l sizeClassHorizontal:(long)h sizeClassVertical:(long)v appearanceName:(NSString *)a locale:(NSString *)loc {
                check(s, i, st, g, l, h, v, a, loc); return n;
            }
            - (id)namedLookupWithName:(NSString *)n scaleFactor:(double)s deviceIdiom:(long)i deviceSubtype:(unsigned long)st displayGamut:(long)g layoutDirection:(long)l sizeClassHorizontal:(long)h sizeClassVertical:(long)v appearanceName:(NSString *)a locale:(NSString *)loc {
                check(s, i, st, g, l, h, v, a, loc); return n;
            }
            @end
            static CUICatalog *catalog;
            #define LOOKUP scaleFactor:3.0 deviceIdiom:1 deviceSubtype:2 displayGamut:3 layoutDirection:4 sizeClassHorizontal:5 sizeClassVertical:6 appearanceName:@"dark" locale:@"en"

            @interface _UIAssetManager : NSObject
            - (id)imageNamed:(NSString *)n;
            - (id)imageNamed:(NSString *)n configuration:(id)c cachingOptions:(long)o attachCatalogImage:(BOOL)attach;
            @end
            @implementation _UIAssetManager
            - (id)imageNamed:(NSString *)n { return [self imageNamed:n configuration:nil cachingOptions:0 attachCatalogImage:YES]; }
            - (id)imageNamed:(NSString *)n configuration:(id)c cachingOptions:(long)o attachCatalogImage:(BOOL)attach {
                return [catalog namedLookupWithName:n LOOKUP];
            }
            @end
            static _UIAssetManager *manager;
            static NSMutableSet *cache;

            @interface UIImage : NSObject
            + (id)imageNamed:(NSString *)n;
            + (id)imageNamed:(NSString *)n inBundle:(id)b withConfiguration:(id)c;
            + (id)imageNamed:(NSString *)n inBundle:(id)b compatibleWithTraitCollection:(id)t;
            + (id)imageWithContentsOfFile:(NSString *)p;
            - (id)initWithContentsOfFile:(NSString *)p;
            @end
            @implementation UIImage
            + (id)imageNamed:(NSString *)n { return [self imageNamed:n inBundle:nil withConfiguration:nil]; }
            + (id)imageNamed:(NSString *)n inBundle:(id)b compatibleWithTraitCollection:(id)t { return [self imageNamed:n inBundle:b withConfiguration:nil]; }
            + (id)imageNamed:(NSString *)n inBundle:(id)b withConfiguration:(id)c {
                if (n == nil) return nil;
                @synchronized (cache) { if ([cache containsObject:n]) return n; [cache addObject:n]; }
                return [manager imageNamed:n configuration:c cachingOptions:0 attachCatalogImage:YES];
            }
            + (id)imageWithContentsOfFile:(NSString *)p { return [[self alloc] initWithContentsOfFile:p]; }
            - (id)initWithContentsOfFile:(NSString *)p { return self; }
            @end

            /* A storyboard's image: the placeholder decodes the name and asks the asset manager directly. */
            @interface UIImageNibPlaceholder : NSObject
            - (id)initWithCoder:(id)coder;
            @end
            @implementation UIImageNibPlaceholder
            - (id)initWithCoder:(id)coder { [manager imageNamed:[coder objectForKey:@"UIResourceName"]]; return self; }
            @end

            /* A trait change re-decodes through CoreUI, with no imageNamed: call. */
            @interface UIImageAsset : NSObject { @public NSString *assetName; }
            - (id)imageWithConfiguration:(id)c;
            @end
            @implementation UIImageAsset
            - (id)imageWithConfiguration:(id)c { return [catalog imageWithName:assetName LOOKUP]; }
            @end

            @interface AppModel : NSObject
            - (void)finishLaunching;
            @end
            @implementation AppModel
            - (void)finishLaunching {}
            @end

            /* SwiftUI: a Swift function calls CoreUI directly. */
            static id swiftui_body(NSString *n) { return [catalog imageWithName:n LOOKUP]; }

            static void *worker(void *unused) {
                NSAutoreleasePool *pool = [NSAutoreleasePool new];
                for (int i = 0; i < 300; i++) {
                    NSString *n = [NSString stringWithFormat:@"worker_%d", i % 7];
                    request("code", "+[UIImage imageNamed:]", n);
                    [UIImage imageNamed:n];
                }
                [pool drain];
                return NULL;
            }

            int main(int argc, char **argv) {
                NSAutoreleasePool *pool = [NSAutoreleasePool new];
                [NSThread currentThread];  /* GNUstep's threading before the second thread */
                truth = fopen(argv[1], "w");
                truthLock = [NSLock new];
                catalog = [CUICatalog new];
                manager = [_UIAssetManager new];
                cache = [NSMutableSet new];
                pthread_t thread;
                /* `one-thread`: the worker stays out (lldb-16 on Linux can end a batch session when
                   two threads stop at breakpoints at once). */
                int two = argc < 3 || strcmp(argv[2], "one-thread") != 0;
                if (two) pthread_create(&thread, NULL, worker, NULL);
                for (int i = 0; i < 300; i++) {
                    NSString *n = [NSString stringWithFormat:@"main_%d", i % 5];
                    request("code", "+[UIImage imageNamed:]", n);
                    [UIImage imageNamed:n];
                }
                if (two) pthread_join(thread, NULL);
                request("code", "+[UIImage imageNamed:inBundle:compatibleWithTraitCollection:]", @"tab");
                [UIImage imageNamed:@"tab" inBundle:nil compatibleWithTraitCollection:nil];
                request("code", "+[UIImage imageNamed:]", nil);
                [UIImage imageNamed:nil];
                request("nib", "-[_UIAssetManager imageNamed:]", @"Placeholder");
                [[UIImageNibPlaceholder alloc] initWithCoder:[NSDictionary dictionaryWithObject:@"Placeholder" forKey:@"UIResourceName"]];
                request("swiftui", "-[CUICatalog imageWithName:scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]", @"hero");
                swiftui_body(@"hero");
                UIImageAsset *asset = [UIImageAsset new];
                asset->assetName = @"header";
                request("trait", "-[CUICatalog imageWithName:scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]", @"header");
                [asset imageWithConfiguration:nil];
                request("file", "+[UIImage imageWithContentsOfFile:]", @"/var/mobile/a.png");
                [UIImage imageWithContentsOfFile:@"/var/mobile/a.png"];
                [[AppModel new] finishLaunching];
                request("code", "+[UIImage imageNamed:]", @"after_launch");
                [UIImage imageNamed:@"after_launch"];
                fclose(truth);
                [pool drain];
                puts("model done");
                return 0;
            }
            """#
    }
#endif
